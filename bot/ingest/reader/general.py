"""``general``: a reader that does not need to have seen the site.

The page's chrome is blanked first (:mod:`bot.ingest.reader.chrome`); entry heads are then
found by what the project already knows (card titles of both editions, topic titles and
aliases: :mod:`bot.ingest.reader.known`) and by the conventions of rules documents:

- ``title – text`` (en dash, em dash or hyphen between spaces), the Glossary's convention;
- ``title: text``, when the page uses it for several entries or the title is known;
- a title line of its own followed by prose, when the title is known or the page has
  several such heads, some of them known;
- a dated title line (``Title 2016-09-19``);
- inside running text whose line breaks were lost (PDF text, a quoting board post), a title
  the project knows where a sentence or an entry may begin (:mod:`bot.ingest.reader.runin`);
  such a page is read with a doubt, since only a moderator can see where each entry ends.

The line forms live in :mod:`bot.ingest.reader.head_forms`, the weighing of a page's
candidates in :mod:`bot.ingest.reader.heads`; this module reads the page with them. Each
entry gets a confidence. A head the project does not know, on a page that does not
confirm the convention by known heads, is a *doubt*: the preview cannot be applied until a
moderator confirms or corrects it. Text that no head claims is listed by line, never
guessed into an entry. A page where no head is found is refused as what it looks like
(navigation, a preamble, a table of contents): no entry is ever made of a page's first line.
"""

from __future__ import annotations

import itertools
import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader import chrome, missed, runin, spacing
from bot.ingest.reader.card_text import game_text_of
from bot.ingest.reader.common import (
    NEW_MARK,
    doubt_missed_heads,
    entry_of,
    opens_with_a_tail,
    paragraphs,
    starts_in_lower_case,
    take_cards,
    unglue_marks,
    unwrapped,
)
from bot.ingest.reader.head_forms import (
    GLUED,
    LINE,
    LOWER,
    RUN_IN,
    inline,
    without_trailing_dash,
)
from bot.ingest.reader.heads import (
    DOUBTFUL,
    Head,
    anchors_of,
    card_data,
    find_heads,
    goes_on_below,
    term_page_head,
)
from bot.ingest.reader.known import OFF_GAME_WORDS, game_term_share
from bot.ingest.reader.limits import MAX_LINE_CHARS
from bot.ingest.reader.markdown import heading_level, without_bold_terms, without_marks
from bot.ingest.reader.model import CorrectionError, Parsed
from bot.ingest.reader.numbered import without_number
from bot.normalize import normalize


def page_rows(text: str) -> tuple[list[tuple[int, str]], chrome.Chrome]:
    page = chrome.strip(text)
    raw = page.text.split("\n")
    lines = without_bold_terms([without_marks(line) for line in raw])
    # In Markdown, a "# Title" over "## Section" headings is the document's title, as an
    # HTML page's <h1> is: never an entry of its own ("# Current Rulings").
    titled = any(heading_level(line) > 1 for line in raw)
    rows: list[tuple[int, str]] = []
    for number, (marked, line) in enumerate(zip(raw, lines, strict=True), 1):
        if titled and heading_level(marked) == 1:
            rows.append((number, ""))
            continue
        rows += ((number, piece) for piece in _unglued(_without_edit_mark(line)))
    return rows, page


def _without_edit_mark(line: str) -> str:
    """A wiki heading without the "[]" its edit link leaves when copied ("Borg 101[]")."""
    stripped = line.rstrip()
    return stripped[:-2].rstrip() if stripped.endswith("[]") and len(stripped) > 2 else line


def _unglued(line: str) -> list[str]:
    return unglue_marks(line, lambda text: inline(text) is not None)


def split_run_together(
    rows: list[tuple[int, str]],
) -> tuple[list[tuple[int, str]], dict[int, Head], list[int]]:
    """``rows`` with each long line that holds entries split at the heads inside it (the
    pieces keep the line's number), the heads by row, and the numbers of the lines split."""
    rows = _wrapped_runs_joined(rows)
    inside_long = {
        index: runin.find(line)
        for index, (_, line) in enumerate(rows)
        if len(line) >= runin.RUN_LINE
    }
    # one head at a long line's start is a long entry, not entries run together
    found = {index: heads for index, heads in inside_long.items() if len(heads) >= 2}
    first = next((index for index, (_, line) in enumerate(rows) if line.strip()), None)
    cut = first is not None and starts_in_lower_case(rows[first][1])
    if cut and first in found:
        # a copy cut inside an entry opens on its tail ("security officers serving aboard
        # Deep Space 9. …"): no head the project does not know at the line's start
        found[first] = [h for h in found[first] if h.start or h.known]
    if not found and cut and (lone := _one_head_after_a_tail(inside_long.get(first, []))):
        found = {first: [lone]}
        taken = [lone]
    else:
        taken = runin.confirmed([head for heads in found.values() for head in heads])
    if not taken:
        return rows, {}, []
    taken_ids = {id(head) for head in taken}
    if all(head.marked for head in taken):  # every item starred: bullets, not "new" marks
        for head in taken:
            head.marked = False
    out: list[tuple[int, str]] = []
    inside: dict[int, Head] = {}
    split: list[int] = []
    for index, (number, line) in enumerate(rows):
        heads = [h for h in found.get(index, []) if id(h) in taken_ids]
        if not heads:
            out.append((number, line))
            continue
        split.append(number)
        if line[: heads[0].start].strip():
            out.append((number, line[: heads[0].start]))
        for position, head in enumerate(heads):
            end = heads[position + 1].start if position + 1 < len(heads) else len(line)
            rest = line[head.text_start : end].strip()
            inside[len(out)] = Head(
                len(out), number, head.title, rest, RUN_IN, head.known, head.marked
            )
            out.append((number, line[head.start : end]))
    return out, inside, split


# The width of a text's lines wrapped to a page or a mail's width.
WRAPPED_WIDTHS = (40, 200)


def _wrapped_runs_joined(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``rows`` with each paragraph wrapped to the text's width joined into one row (at its
    first line's number) where it holds entries run together that open inside its lines: a
    text whose line breaks were lost, wrapped again (a mail program's copy of it, a PDF's
    print of it), so its heads are found as in the long line it was. A line near the
    text's width is taken for wrapped, the next going on: a PDF's proportional letters
    leave no count of characters to fit the next word by."""
    if sum(1 for _, line in rows if line.strip()) < spacing.MIN_LINES:
        return rows
    width = spacing.line_width([line for _, line in rows])
    if not WRAPPED_WIDTHS[0] <= width < WRAPPED_WIDTHS[1]:
        return rows  # too narrow for paragraphs, or lines long enough to look inside
    out: list[tuple[int, str]] = []
    block: list[tuple[int, str]] = []
    for number, line in [*rows, (0, "")]:
        if block and line.strip() and len(block[-1][1].rstrip()) >= spacing.FILLED * width:
            block.append((number, line))
            continue
        out += _joined_if_run_together(block)
        block = [(number, line)] if line.strip() else []
        if not line.strip() and number:
            out.append((number, line))
    return out


def _joined_if_run_together(block: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``block`` (a wrapped paragraph's lines) as one row where heads run together inside
    it, two at least and one not at a line's start; else as it is."""
    if len(block) < 2:
        return block
    joined = " ".join(line.strip() for _, line in block)
    if not runin.RUN_LINE <= len(joined) <= MAX_LINE_CHARS:  # no longer than a line may be
        return block
    starts, at = set(), 0
    for _, line in block:
        starts.add(at)
        at += len(line.strip()) + 1
    heads = runin.find(joined)
    if len(heads) < 2 or all(head.start in starts for head in heads):
        return block
    return [(block[0][0], joined)]


def _one_head_after_a_tail(heads: list[runin.RunIn]) -> runin.RunIn | None:
    """The one known ``Title – text`` head inside a copy's first line, where that line is
    text whose breaks were lost and opens inside a sentence (the tail of an entry cut
    above it, as a copy of part of a PDF starts): the head opens the page's one entry."""
    if len(heads) != 1 or not heads[0].known or heads[0].style != "dash" or not heads[0].start:
        return None
    return heads[0]


def detect(text: str) -> float:
    rows, _, heads, _ = _analysed(text)
    return 0.4 if heads and not _index_of_terms(heads, rows) else 0.0


def parse(text: str) -> Parsed:
    rows, page, heads, split = _analysed(text)
    if not heads or _index_of_terms(heads, rows):
        return Parsed()
    return _read(rows, page, heads, split)


# The reader detects every shape, then parses with the likeliest: the page's analysis (its
# chrome, its running text split, its heads) is kept for the text last analysed, so the
# general reader does that work once per upload, not twice. Nothing below changes it.
_last: tuple[str, tuple] | None = None


def forget_analysis() -> None:
    """Drop the analysis kept for the text last read: for a caller that changes the
    titles the project knows between two reads of one text (the synthetic pages' titles
    withheld), whose heads would otherwise be the ones found with the titles known."""
    global _last
    _last = None


def _analysed(
    text: str,
) -> tuple[list[tuple[int, str]], chrome.Chrome, list[Head], list[int]]:
    global _last
    last = _last
    if last is not None and last[0] == text:
        return last[1]
    rows, page = page_rows(text)
    rows, inside, split = split_run_together(rows)
    analysis = (rows, page, _heads(rows, inside, page), split)
    _last = (text, analysis)
    return analysis


def _heads(rows: list[tuple[int, str]], inside: dict[int, Head], page: chrome.Chrome) -> list[Head]:
    """The page's heads; on a page where none is confirmed, a wiki's page for one term."""
    heads = _without_game_text(find_heads(rows, inside, anchors_of(page)), rows)
    if not heads and (term := term_page_head(rows)) is not None:
        heads = [term]
    return heads


GAME_TEXT_CHECKS = 20  # unknown heads looked up per page: a card's page has a few


def _without_game_text(heads: list[Head], rows: list[tuple[int, str]]) -> list[Head]:
    """``heads`` without those whose line is a card's game text ("Order - Reveal the top
    four cards …" on a 2E card's page): the card's data, never an entry. Only heads whose
    title the project does not know are looked up, the first few of a page."""
    unknown = [h for h in heads if not h.known and h.style != RUN_IN][:GAME_TEXT_CHECKS]
    printed = {h.index for h in unknown if h.rest and game_text_of(rows[h.index][1])}
    return [h for h in heads if h.index not in printed]


def parse_with_heads(text: str, given: dict[int, str | None]) -> Parsed:
    """The page read with a moderator's heads: each line of ``given`` (line number: its
    title, or None for the title the line prints) opens an entry, confirmed, besides the
    heads the reader finds itself. A given line the chrome removal blanked is kept."""
    raw = text.split("\n")
    rows, page = page_rows(text)
    rows = [
        (number, raw[number - 1] if number in given and not line.strip() else line)
        for number, line in rows
    ]
    rows, inside, split = split_run_together(rows)
    found = {h.index: h for h in find_heads(rows, inside, anchors_of(page))}
    heads: list[Head] = []
    taken: set[int] = set()
    for index, (number, line) in enumerate(rows):
        if number in given and number not in taken and line.strip():
            taken.add(number)
            head = printed_head(index, number, line, given[number])
            head = head or found.get(index) or given_head(index, number, line, given[number])
            head.title = given[number] or head.title
            head.confidence = 1.0
            heads.append(head)
        elif index in found:
            heads.append(found[index])
    if missing := sorted(set(given) - taken):
        raise CorrectionError(
            f"line {missing[0]}: no text there to open an entry with (a head names the line "
            "that holds the entry's title, as the preview or the refusal numbers it)"
        )
    heads.sort(key=lambda head: head.index)
    return _read(rows, page, heads, split)


def printed_head(index: int, number: int, line: str, title: str | None) -> Head | None:
    """The head of a line that opens with the very title a moderator gave: the title is the
    line's first words, whatever form the reader would have read in it ("Phase One:
    Customizing a 60-Card Deck" is one title, not "Phase One" and its text), and the rest
    of the line, after a dash or a colon, is the entry's text (a title run into its text:
    "The Affiliations It is possible …"); else None."""
    if not title:
        return None
    # a numbered list's item opens with its number ("12) shroud field: …"), a table's row
    # with its rule ("| drift beacon | A beacon …|"), not with its title
    bare = without_number(" ".join(line.split())).lstrip("| ")
    given = " ".join(title.split())
    if not bare.casefold().startswith(given.casefold()):
        return None
    rest = bare[len(given) :]
    if rest and not rest[0].isspace() and rest[0] not in ":–—-|":
        return None  # the title ends inside a word of the line: not the line's title
    rest = rest.strip(" :–—-|") if line.lstrip().startswith("|") else rest.lstrip(" :–—-")
    return Head(index, number, given, rest, RUN_IN if rest else LINE, known=False)


def given_head(index: int, number: int, line: str, title: str | None) -> Head:
    """A head on a line a moderator named: its ``Title – text`` form where it has one, else
    the whole line is the title, unless the moderator gave the title and the line is text
    (a sentence, a question: an FAQ's numbered question whose topic the copy lost), which
    then opens the entry's text rather than being lost under the title given."""
    bare = line.strip()
    # "*Lore Returns": a Current Rulings' mark of a new or changed entry, not its title's
    marked = bool(NEW_MARK.match(bare)) and len(bare) > 2
    bare = NEW_MARK.sub("", bare).strip() if marked else bare
    if found := inline(bare):
        printed, rest, style = found
        return Head(index, number, printed, rest, style, known=False, marked_new=marked)
    if title and _reads_as_text(bare) and bare.casefold() != title.casefold():
        return Head(index, number, title, bare, LINE, known=False, marked_new=marked)
    # "stopped –" over its text: the dash is the head's, not the title's
    return Head(index, number, without_trailing_dash(bare), "", LINE, False, marked)


def _reads_as_text(line: str) -> bool:
    """Whether a line reads as text rather than a title: it ends a sentence or a question,
    or it runs longer than a title does."""
    return line.rstrip("\"”’') ").endswith((".", "?", "!")) or len(line.split()) > 12


def _read(
    rows: list[tuple[int, str]], page: chrome.Chrome, heads: list[Head], split: list[int]
) -> Parsed:
    """The entries under ``heads``, with the notes and doubts of the page."""
    result = Parsed()
    for number in split:
        count = sum(1 for h in heads if h.line == number)
        if count > 1:
            found = (
                f"line {number} runs entries together (text whose line breaks were lost): "
                f"{count} entries were found inside it"
            )
            where, breaks = "each one begins and ends", "a line break before each entry"
        else:  # a copy cut inside an entry: one head after that entry's tail
            found = (
                f"line {number} is text whose line breaks were lost: one entry was found "
                "inside it, after the tail of an entry cut above"
            )
            where, breaks = "it begins and ends", "its line breaks"
        result.warnings.append(
            ParseWarning(
                number,
                f"{found} (by titles the project knows, or by heads printed 'Title – text'); "
                f"check where {where}, then confirm the line ({{line: {number}, confirm: "
                f"true}}) or upload the text with {breaks}",
                doubt=True,
            )
        )
    before = [(n, line.strip()) for n, line in rows[: heads[0].index] if line.strip()]
    titles = {normalize(head.title) for head in heads}
    if heading := [(n, line) for n, line in before if normalize(line) in titles]:
        # a wiki prints the entry's title above it as the page's heading ("actions – step 1:
        # initiation", "Edit", then the entry): the page's, not a missed entry
        result.ignored(heading, "the next entry's title printed above it (the page's heading)")
        before = [item for item in before if item not in heading]
    raw = page.text.split("\n")
    doubts = len(result.warnings)
    doubt_missed_heads(result, before, "before the first entry")
    # cut mid-sentence: an entry's tail (a Markdown heading in lower case is none)
    cut = (
        bool(before)
        and starts_in_lower_case(before[0][1])
        and not heading_level(raw[before[0][0] - 1])
    )
    if len(result.warnings) == doubts:  # no head set aside was named yet
        tail = cut and opens_with_a_tail(before[0][1])
        missed.heading_among_text(result, before, raw, tail)
    colon_page = missed.colon_page(heads)
    numbered = any(head.numbered for head in heads)  # its items' numbers are no titles'
    glued_page = any(head.style == GLUED for head in heads)
    if len(result.warnings) == doubts and colon_page:
        missed.head_of_the_pages_form(result, before, numbered)
    if len(result.warnings) == doubts and glued_page:
        missed.glued_head_set_aside(result, "text before the first entry", before)
    if cut:
        result.ignored(before, "the page starts inside an entry whose title is not on it")
    else:
        result.ignored(before, "text before the first entry, not placed")
    explained: set[str] = set()  # the doubts whose reason was said in full
    for position, head in enumerate(heads):
        end = heads[position + 1].index if position + 1 < len(heads) else len(rows)
        body = rows[head.index + 1 : end]
        if head.style == RUN_IN:
            # Text run together keeps each entry within its line: what follows the line (a
            # page heading, the next section's preamble) is not placed in the entry.
            after = [(n, line.strip()) for n, line in body if line.strip()]
            doubt_missed_heads(result, after, "between entries")
            result.ignored(after, "text between entries that run together, not placed")
            body = []
        if head.caption is not None:
            number, caption = rows[head.caption]
            result.ignored([(number, caption.strip())], "an image's caption under the title")
            body = [row for i, row in enumerate(body, head.index + 1) if i != head.caption]
        body, cards = take_cards(body)
        missed.heading_inside(result, head.title, body)
        if colon_page:
            missed.colon_head_inside(result, head.title, body, numbered)
        if glued_page:
            missed.glued_head_set_aside(result, f"the text of {head.title!r}", body, head.rest)
        missed.numbered_heads_inside(result, head, body)
        body, data = _card_data_set_aside(unwrapped(body))
        result.ignored(data, "the card's data under its title, set aside")
        texts = _joined(head.rest, body, paragraphs(body))
        entry = entry_of(head.title, texts, head.line, cards, head.date)
        entry.marked_new = head.marked_new
        entry.confidence = head.confidence
        result.entries.append(entry)
        if head.confidence < DOUBTFUL:
            result.warnings.append(
                ParseWarning(
                    head.line,
                    f"entry {head.title!r} (confidence {head.confidence:.2f}): "
                    + _why_doubted(head, explained)
                    # how to settle it, as the other doubts say (a glued title's names its own)
                    + (
                        ""
                        if head.style == GLUED
                        else f" (if so: {{line: {head.line}, confirm: true}})"
                    ),
                    doubt=True,
                )
            )
        if not texts:
            result.warnings.append(
                ParseWarning(head.line, f"entry {head.title!r} has no text", doubt=True)
            )
    _drop_repeated_headings(result)
    if note := page.note():
        result.warnings.append(note)
    return result


def _drop_repeated_headings(result: Parsed) -> None:
    """A head whose title and text together are the next entry's title ("actions" / "step
    1: initiation" over "actions – step 1: initiation – Add the following …"): a wiki's page
    title printing the entry's title above it, split at its dash. It is no entry: set aside,
    with any doubt about it, as a note."""
    entries = result.entries
    repeated = {
        entry.line
        for entry, following in itertools.pairwise(entries)
        if entry.text
        and "\n" not in entry.text
        and normalize(f"{entry.title} {entry.text}") == normalize(following.title)
    }
    if not repeated:
        return
    for entry in entries:
        if entry.line in repeated:
            result.ignored(
                [(entry.line, f"{entry.title} – {entry.text}")],
                "the next entry's title printed above it (the page's heading)",
            )
    result.entries = [e for e in entries if e.line not in repeated]
    result.warnings = [w for w in result.warnings if not (w.doubt and w.line in repeated)]


def _index_of_terms(heads: list[Head], rows: list[tuple[int, str]]) -> bool:
    """Whether every head is a bare cross reference ("aboard - See present.") with nothing
    under it: an index of terms, not a page of rulings (a Glossary mixes such references
    with entries that hold text)."""
    if len(heads) < 3:
        return False
    for position, head in enumerate(heads):
        end = heads[position + 1].index if position + 1 < len(heads) else len(rows)
        words = len(head.rest.split()) + sum(
            len(line.split()) for _, line in rows[head.index + 1 : end]
        )
        if not head.rest.startswith("See ") or words > 3 * (end - head.index) + 8:
            return False
    return True


def _card_data_set_aside(
    body: list[tuple[int, str]],
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """``body`` without the card's data block that opens it (``Name:``, ``Type:``, ``Lore:``
    lines on a wiki's card page), and that block's lines."""
    content = [(i, number, line.strip()) for i, (number, line) in enumerate(body) if line.strip()]
    data = card_data(content)
    leading = 0
    while leading in data:  # the block that opens the body, not a later one
        leading += 1
    rows = {content[position][0] for position in range(leading)}
    kept = [row for i, row in enumerate(body) if i not in rows]
    return kept, [(number, line.strip()) for i, (number, line) in enumerate(body) if i in rows]


_UNKNOWN_AGAIN = "an unknown title as above; check that it is an entry"


def _why_doubted(head: Head, explained: set[str]) -> str:
    """Why ``head`` is a doubt: in full the first time a reason is given on the page (its
    key is added to ``explained``), shortly after that, so that a preview of many such
    entries still reads on a phone."""
    if head.style == GLUED:
        # a bold title copied as plain text: the title's end is read, not printed
        correction = f"{{line: {head.line}, title: <the whole title>}}"
        full = (
            "its title runs into its text with no mark between them (a bold title copied as "
            f"text); check that it is an entry whose title ends after {head.title!r} (if it "
            f"ends elsewhere: {correction})"
        )
        short = (
            f"its title runs into its text too: does it end after {head.title!r}? ({correction})"
        )
        return _said(explained, GLUED, full, short)
    if head.at_cut:
        return (
            "the page's first line opens like a head but may be the end of an entry cut off "
            "above it; check that it is an entry"
        )
    if head.known:
        return (
            "the only head of its form on the page, after text that is not placed: it may be "
            "a card named in a post or an article; check that it is an entry"
        )
    if head.style == LOWER:
        full = (
            "the project knows no card or topic of this title and its text starts in lower "
            "case (a weak sign of an entry); check that it is an entry, not a sentence's dash"
        )
        return _said(explained, LOWER, full, _UNKNOWN_AGAIN)
    full = (
        "the project knows no card or topic of this title"
        + (
            "; a title line of its own may be the page's or a section's heading"
            if head.style == LINE
            else f" and the page does not confirm its '{head.style}' heads"
        )
        + "; check that it is an entry, not a heading or part of the entry before"
    )
    return _said(explained, f"unknown {head.style}", full, _UNKNOWN_AGAIN)


def _said(explained: set[str], key: str, full: str, short: str) -> str:
    """``full`` the first time the reason ``key`` is given on the page, else ``short``."""
    if key in explained:
        return short
    explained.add(key)
    return full


_REPLY = re.compile(r"(?:re|aw|sv|antw)\s?:\s", re.I)  # a reply's subject, in several tongues


def _joined(rest: str, body: list[tuple[int, str]], texts: list[tuple[int, str]]) -> list[str]:
    """The entry's paragraphs: the text on its head's line (``rest``), then ``texts``, the
    paragraphs of the lines under it (``body``). A head's line wrapped to a width, as a
    mail's are ("A Fast Ship Would Be Nice: Opponent may target one personnel on a" /
    "dual-personnel card …"), goes on on the next line: one paragraph, not two."""
    if not rest:
        return [text for _, text in texts]
    first = texts[0][1] if texts else ""
    # the next line, with no blank line between, carries the head's line on
    if first and body[0][1].strip() and goes_on_below(rest, first):
        return [f"{rest} {first}"] + [text for _, text in texts[1:]]
    return [rest] + [text for _, text in texts]


def diagnose(text: str) -> str:
    """What a page with no entry heads looks like, for the refusal."""
    page = chrome.strip(text)
    lines = [line.strip() for line in page.text.split("\n") if line.strip()]
    prose = any(len(line.split()) >= 20 for line in lines)
    if not lines or page.share >= 0.5 and not prose:
        return "navigation (site menus and link lists)"
    if sum(1 for line in text.split("\n") if _REPLY.match(line.strip())) >= 2:
        # "Re: Dilemmas that deal damage to a ship" over each post (the chrome's repeated
        # header): its short lines (dates, authors) are a thread's, not a contents list's
        return "a forum thread or a mail exchange (replies, no entry titles)"
    # a contents' lines are titles; a thread's or a chat's short lines are sentences
    short = sum(1 for line in lines if len(line.split()) < 8 and not ends_sentence(line))
    if short >= 0.6 * len(lines) and len(lines) >= 5:
        return "a table of contents (short lines with no ruling text under them)"
    share, words = game_term_share(page.text)
    if share == 0 and words >= OFF_GAME_WORDS:
        # Real rules text this long always uses some of the game's terms: another game's
        # rulings (which speak of cards and players as this game's do), news, or an article
        # in another language
        return (
            "an article or another game's rules (no entry titles, and none of the game's "
            f"terms such as dilemma, mission or personnel in its {words} words)"
        )
    return "a preamble or an article (prose with no entry titles the reader can find)"
