"""Which lines of a page open entries, and how sure the reader is of each.

Candidates come from the line forms of :mod:`bot.ingest.reader.head_forms` and from heads
already found inside running text; the page then confirms them: titles the project knows,
a glossary's alphabetical order, a letter page's anchors. A candidate the page does not
confirm is dropped; one it confirms only weakly gets a confidence below :data:`DOUBTFUL`, a
doubt that blocks applying until a moderator confirms or corrects it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.ingest.parsers.text import amendment_of, ends_sentence
from bot.ingest.reader import chrome, spacing
from bot.ingest.reader.common import (
    NEW_MARK,
    YEAR,
    bylined,
    introduces_text,
    opening_character,
    paragraphs,
    starts_in_lower_case,
    unwrapped,
)
from bot.ingest.reader.dates import ISO
from bot.ingest.reader.glued import run_into_text
from bot.ingest.reader.head_forms import (
    CARD_FIELDS,
    COLON,
    DASH,
    DATED,
    GLUED,
    LINE,
    LOWER,
    MIN_FIELDS,
    RUN_IN,
    card_field,
    cites_a_title,
    inline,
    known_title,
    label_under,
    prose,
    subtitle_joined,
    title_ok,
    without_alt_text,
    without_annotation,
    without_trailing_dash,
)
from bot.ingest.reader.known import SMALL_WORDS, is_known
from bot.ingest.reader.metadata import dating_label, names_a_document
from bot.ingest.reader.numbered import numbered_heads

DOUBTFUL = 0.6  # an entry below this confidence is a doubt that blocks applying
LONE = 0.55  # a lone known head the page confirms by nothing else
ORDERED = 0.7  # an unknown head among heads in a glossary's alphabetical order
MIN_ORDERED = 4  # heads across letters whose alphabetical order confirms a glossary
CARD_PAGE = 0.9  # a known card's title over its card data block
GUESSED_END = 0.58  # a title run into its text where others are: where it ends, a doubt
_DATED = re.compile(rf"\s({ISO})$")
_WORDS = re.compile(r"[\w'-]+")


@dataclass
class Head:
    index: int  # position in the page's lines
    line: int  # 1-based line number
    title: str
    rest: str  # text printed on the head's own line after the title
    style: str
    known: bool
    marked_new: bool = False
    date: str | None = None
    confidence: float = 0.0
    caption: int | None = None  # the row of an image's caption under the title, set aside
    numbered: bool = False  # an item of a numbered list of entries ("12) DS9: …")
    at_cut: bool = False  # the first line of a copy cut inside an entry: perhaps its tail


def _cut_at_end(content: list[tuple[int, int, str]], position: int) -> bool:
    """Whether the line after ``position`` is the page's last, cut off inside the entry's
    first words ("Ocett" / "See No", "Warp Speed" / "The fo"): a page store's cut, under a
    title line like the page's others."""
    if position + 2 != len(content):
        return False
    last = content[-1][2]
    return 1 <= len(last.split()) <= 4 and not ends_sentence(last) and last[:1].isupper()


def _text_follows(line: str, after: str) -> bool:
    """Whether an entry's text starts at ``line`` (``after`` is the line after it): prose, a
    cross reference ("See Q, Q-related dilemma."), or a label ("Revised text:") over prose."""
    if prose(line):
        return True
    if line.startswith("See ") and line.endswith("."):
        return True
    if amendment_of(line) is not None:  # "Add the following" over the added text
        return True
    return len(line.split()) <= 3 and line.endswith(":") and prose(after)


def _without_label_set(candidates: list[Head], seen: dict[str, int]) -> list[Head]:
    """``candidates`` without a review's labels: where a capitals ``LABEL:`` head repeats
    ("LORE:" under each card reviewed), the page prints labelled paragraphs, and every
    capitals ``LABEL:`` head on it ("TREK SENSE:", "TOTAL:") is one of the set, known or not."""
    caps = [h for h in candidates if h.style == COLON and h.title.isupper()]
    if not any(seen[h.title.casefold()] > 1 for h in caps):
        return candidates
    labels = {id(h) for h in caps}
    return [h for h in candidates if id(h) not in labels]


def find_heads(
    rows: list[tuple[int, str]],
    inside: dict[int, Head] | None = None,
    anchors: dict[int, str] | None = None,
) -> list[Head]:
    """Every candidate head in ``rows`` ((line number, text) of the page with its chrome
    blanked), each with its confidence; candidates the page does not confirm are dropped.
    ``inside`` holds the heads already found inside running text, by row; ``anchors`` the
    letter page's "back to top of page xx" anchors, by line number."""
    content = [(i, n, line.strip()) for i, (n, line) in enumerate(rows) if line.strip()]
    candidates, over_data = _candidates(rows, content, inside or {}, anchors or {})
    if bylined([line for _, _, line in content[:30]]):
        # An article or a post ("by Jon Carter, Rules Master") tells its news in labelled
        # paragraphs and under headings ("Mas'ud: At the beginning of May, …"): only the
        # rules documents' own "title – text" heads (a quoted update) are entries there.
        candidates = [h for h in candidates if h.style not in (COLON, LINE)]
    # an article's prose counts by lines, and by paragraphs wrapped to a page's width
    wrapped = unwrapped([(i, line) for i, (_, line) in enumerate(rows)])
    prose = [content, [(i, 0, line.strip()) for i, line in wrapped if line.strip()]]
    judged = _judged(_without_labels(candidates), content, over_data, prose)
    return _nested_dash_heads_dropped(judged)


def _candidates(
    rows: list[tuple[int, str]],
    content: list[tuple[int, int, str]],
    inside: dict[int, Head],
    anchors: dict[int, str],
) -> tuple[list[Head], set[int]]:
    """Every line of ``content`` (the page's non-blank rows) that opens like an entry, as a
    head not yet judged; and the rows of known card titles printed over their card's data."""
    candidates: list[Head] = []
    data = card_data(content)
    over_data: set[int] = set()  # known card titles printed over their card's data
    numbered = numbered_heads([(_opens_paragraph(rows, i), line) for i, _, line in content])
    first_item = min(numbered, default=len(content))
    captions: set[int] = set()  # the positions of images' captions under title lines
    sections = _anchor_sections(rows, anchors)
    for position, (index, number, line) in enumerate(content):
        if position in captions:
            continue
        if index in inside:
            candidates.append(inside[index])
            continue
        if position in data:
            continue  # "Type: Dilemma", "Lore: …": a card's data, under its title
        if position and introduces_text(numbered.get(position - 1) or content[position - 1][2]):
            continue  # "…with the following:" / "Objectives – …": the text it introduces
        marked = bool(NEW_MARK.match(line))
        bare = numbered.get(position) or NEW_MARK.sub("", line).strip()
        found, glued = inline(bare), None
        if found and found[2] == COLON and not is_known(found[0]) and _opens_paragraph(rows, index):
            # "faction There are 3 factions: …", "HQ: Defensive Measures Seeds or plays …":
            # a known title run into its text, whose own sentence holds the colon
            glued = run_into_text(bare)
            if glued and glued[2] and _colon_in_sentence(glued[0], found[0]):
                found = None
        if found and found[2] == DASH:
            found = _run_on_below(rows, index, bare, found)
        if found and (
            found[2] != LOWER
            or _opens_paragraph(rows, index)
            # a page without blank lines: a known term after a line that ends a sentence
            or (known_title(found[0]) and index and not _continues_sentence(rows, index))
        ):
            if position > first_item and position not in numbered:
                continue  # a numbered list's entries are its items: this is inside one
            title, rest, style = found
            if (
                style == DASH
                and _subtitled(rows, index, rest)
                and (not is_known(title) or not position and names_a_document(rest))
            ):
                # "Document title - its subtitle" on a line of its own; at the page's top,
                # a subtitle naming a document even under a card's name ("Red Alert! -
                # Pseudo FAQ v1.3": another game's FAQ)
                continue
            if style == COLON and _no_sentence(rows, index, rest) and not introduces_text(rest):
                # "Vulcan Stone of Gol: Piece 1 TNG Rare": a list's item, no text ("scouting
                # location: Add the following" introduces its text on the next line)
                continue
            if style == COLON and _wraps_onto(rows, index):
                continue  # "…which both have the" / "location text: "Vulcan", …": prose
            if style == COLON and starts_in_lower_case(rest) and _continues_sentence(rows, index):
                # "…who also have another" / "species: for example, …": a term over text in
                # lower case is too weak a head to stop the sentence above
                continue
            head = Head(index, number, title, rest, style, known_title(title), marked)
            head.numbered = position in numbered
            candidates.append(head)
            continue
        if (
            _opens_paragraph(rows, index)
            and (glued := glued or run_into_text(bare))  # read once, above, for a colon
            # a copy's first line all in lower case ("special equipment currently includes
            # …") is as likely the tail of an entry cut above it
            and (position or not starts_in_lower_case(glued[1]))
        ):
            candidates.append(Head(index, number, *glued[:2], GLUED, glued[2], marked))
            continue
        if (
            (date := _DATED.search(bare))
            and title_ok(bare[: date.start()].strip())
            and not dating_label(bare[: date.start()])
        ):
            title = bare[: date.start()].strip()
            candidates.append(
                Head(index, number, title, "", DATED, known_title(title), marked, date.group(1))
            )
            continue
        below = position + 1
        while below in data:  # a card's title over its data: its text comes after the data
            below += 1
        bare = without_alt_text(without_annotation(without_trailing_dash(bare)))
        caption = None
        if below + 1 < len(content) and caption_under(bare, content[below][2]):
            # "Infiltration icon –" / "Infiltration icons" / its text: an image's caption
            caption, below = below, below + 1
        following = content[below][2] if below < len(content) else ""
        after = content[below + 1][2] if below + 1 < len(content) else ""
        if (
            title_ok(bare, alone=True)
            and not cites_a_title(bare)  # "actions – step 1: initiation.": a reference's tail
            and (len(bare.split()) <= 6 or known_title(bare))
            and not _continues_sentence(rows, index)
            and (_text_follows(following, after) or _cut_at_end(content, position))
            and (not (next_head := inline(following)) or label_under(bare, next_head))
        ):
            known_here = known_title(bare) or _anchored(bare, sections[index])
            head = Head(index, number, bare, "", LINE, known_here, marked)
            if caption is not None:
                head.caption = content[caption][0]
                captions.add(caption)
            candidates.append(head)
            if known_here and position + 1 in data:
                over_data.add(index)
    return candidates, over_data


def _colon_in_sentence(known: str, colon_title: str) -> bool:
    """Whether a known title run into its text puts the line's colon inside that title
    ("HQ: Defensive Measures Seeds …") or three words or more into its sentence ("faction
    There are 3 factions: …"); two words ("Klingon Honor rules: …") read as a section's own
    title."""
    return ":" in known or len(colon_title.split()) - len(known.split()) >= 3


def _without_labels(candidates: list[Head]) -> list[Head]:
    """``candidates`` without the labels among them: a title printed as a head more than
    once ("YES:", "Note:") and a review's set of labels."""
    seen: dict[str, int] = {}
    for head in candidates:
        seen[head.title.casefold()] = seen.get(head.title.casefold(), 0) + 1
    # A Current Rulings update lists an entry under its changes and again under its rulings:
    # repeated "title - text" heads are entries (the duplicate-title doubt names them).
    candidates = [
        h for h in candidates if seen[h.title.casefold()] == 1 or h.known or h.style == DASH
    ]
    return _without_label_set(candidates, seen)


def _judged(
    candidates: list[Head],
    content: list[tuple[int, int, str]],
    over_data: set[int],
    prose: list[list[tuple[int, int, str]]],
) -> list[Head]:
    """The ``candidates`` the page confirms, each with its confidence: by how many heads of
    its form the project knows, their order, and where it stands on the page (``prose``:
    the page's content by lines and by wrapped paragraphs, for the prose above a head)."""
    known = {style: 0 for style in (DASH, COLON, LINE, DATED, RUN_IN, LOWER, GLUED)}
    total = dict(known)
    # On a numbered list of entries, the number is part of the heads' form: a head of the
    # items' form but no number ("60 cards: …" above "9) cannot: …", a cut entry's tail) is
    # not confirmed by them.
    bare_known, bare_total = dict(known), dict(known)
    numbered_forms = {head.style for head in candidates if head.numbered}
    for head in candidates:
        total[head.style] += 1
        known[head.style] += head.known
        if head.style in numbered_forms and not head.numbered:
            bare_total[head.style] += 1
            bare_known[head.style] += head.known
    ordered = _in_order(candidates, total)
    kept: list[Head] = []
    opening = content[0][0] if content else -1
    # the page holds no head of another form: a paste of one ruling, not a page cut
    # inside an entry above others ("commander: U.S.S. Enterprise-E …" over title lines)
    lone_form = len({h.style for h in candidates}) == 1
    for head in candidates:
        if head.style == LOWER:  # confirmed by the page's dash heads of either kind
            head.confidence = _lower_confidence(head, known[DASH] + known[LOWER])
            if id(head) in ordered and head.confidence == 0:
                # in its place in the glossary's order of the page's dash heads: still a
                # weak sign (a sentence's dash), a doubt
                head.confidence = LONE
        elif head.style in numbered_forms and not head.numbered:
            # nor does the items' order: the list is in its numbers' order, whatever the
            # titles' (a title in figures is first in any alphabetical order)
            head.confidence = _confidence(head, bare_known[head.style], bare_total[head.style])
        else:
            head.confidence = _confidence(head, known[head.style], total[head.style])
            if id(head) in ordered and not head.known and 0 < head.confidence < DOUBTFUL:
                head.confidence = ORDERED
            elif id(head) in ordered and head.confidence == 0:
                head.confidence = 0.95 if head.known else ORDERED
        if head.style == GLUED:
            # where its title ends is a guess, however the page confirms the convention
            head.confidence = min(head.confidence, GUESSED_END)
        if head.index in over_data:
            # a card's page: the card's title over its own data ("Name:", "Type:", "Lore:")
            head.confidence = max(head.confidence, CARD_PAGE)
        elif head is candidates[0] and _title_over_a_tail(head, content):
            head.confidence = 0.0
        elif not kept and _may_be_a_tail(head, content):
            # a copy cut inside an entry opens with its tail, which may read "words: more
            # words" ("brings to the game at least 60 cards: 5 different missions, …"): a
            # term the page's other heads confirm, or the end of a sentence cut above
            head.confidence, head.at_cut = min(head.confidence, LONE), True
        elif (
            head.confidence == LONE
            and head.known
            and head.index == opening
            and lone_form
            and not (head.style == COLON and head.title.casefold() in CARD_FIELDS)
        ):
            # A lone known head that opens the upload is a moderator's one-ruling text;
            # after a post's or article's prose it may be a card quoted in a discussion. A
            # card's field ("lore: Typical Starfleet ensign …") is a card's data, or a line of
            # an entry cut above: no one-ruling paste.
            head.confidence = 0.8
        elif (
            head.confidence == LONE
            and head.known
            and any(_prose_above(p, head.index) for p in prose)
        ):
            # under paragraphs of an article ("Make It So" as a review's section heading),
            # a card's title is a heading or a quote, not a ruling: no entry at all
            head.confidence = 0.0
        elif (
            head.confidence == LONE
            and head.known
            and _labelled_paragraphs(content, head.index) >= 2
        ):
            # among paragraphs a review opens with labels the page takes as no heads ("Doors
            # Once Closed to You Will Be Open Once Again: …"), the one label that names a card
            # ("Once More Unto The Breach: …") is one more label, and a card's name over them
            # is the card reviewed: no ruling
            head.confidence = 0.0
        elif (
            head.style == DASH
            and head.known
            and total[DASH] == 1
            and not kept  # the page's first entry: under prose, not under entries
            and any(_prose_above(p, head.index, words=12, at_least=1) for p in prose)
        ):
            # the one "Card – its game text" paragraph under an article's prose (a card of
            # the day, a review quoting the card): a card quoted, perhaps no ruling
            head.confidence = min(head.confidence, LONE)
        elif (
            head.style == DASH
            and not head.known
            and total[DASH] == 1
            and any(_prose_above(p, head.index, words=20) for p in prose)
        ):
            # the one "Title – text" paragraph under an article's or a preamble's prose
            # ("Using this document – When a ruling…"): a paragraph's lead-in, not an entry
            head.confidence = 0.0
        if head.confidence > 0:
            kept.append(head)
    return kept


def term_page_head(rows: list[tuple[int, str]]) -> Head | None:
    """The head of a wiki's page for one term ("Dilemma Side Deck", then "Your Dilemma side
    deck is an optional…"): the page opens with a title line (an image's caption naming the
    term may follow it), its first paragraph names every word of the title, and its text is
    paragraphs of sentences, no table or list. The project need not know the term, so the
    head is a doubt for a moderator to confirm; an article opens with a title too, but its
    first paragraph seldom names it whole, and an encyclopedia's that does dates it."""
    content = [(i, n, line.strip()) for i, (n, line) in enumerate(rows) if line.strip()]
    if len(content) < 2:
        return None
    index, number, title = content[0]
    if not title_ok(title, alone=True) or len(title.split()) > 6 or known_title(title):
        return None  # a known title is read as such by the page's other heads
    need = {_stem(w) for w in title.split() if w.casefold() not in SMALL_WORDS}
    need.discard("")  # a dash between the title's words ("battle – ship – multiple targets")
    first, caption = 1, None
    if caption_under(title, content[1][2]):
        first, caption = 2, content[1][0]  # "Icon hiddenagenda" under "Hidden Agenda icon"
    # lines, but a block wrapped to a width is one paragraph (a page printed to PDF)
    after = content[first][0] if first < len(content) else len(rows)
    body = [text for _, text in paragraphs(rows[after:], lower_joins=False)][:30]
    if not body or len(body[0].split()) < 12:
        return None
    if not need <= {_stem(w) for w in _WORDS.findall(body[0])} or YEAR.search(body[0]):
        # a definition names its term; an encyclopedia's article dates it ("…the fourth
        # expansion, released in 1997"): a rule states no year
        return None
    if "?" in body[0]:
        # an article opens by asking its reader ("But what else do we know about …?"); a
        # term's definition states
        return None
    body = _without_icons(body)
    if sum(1 for line in body if ends_sentence(line) and "|" not in line) < 0.6 * len(body):
        return None  # a table or a list under a heading: a site's page, not a term's
    return Head(index, number, title, "", LINE, False, confidence=LONE, caption=caption)


def _without_icons(body: list[str]) -> list[str]:
    """A wiki page's paragraphs without its icons' alt texts ("Icon tactic draw"), each
    paragraph an icon broke joined again where its rest goes on in lower case ("… treat
    that symbol as" / "Icon tactic draw" / "for damage to each remaining target.")."""
    out: list[str] = []
    for line in body:
        words = line.split()
        if words[:1] == ["Icon"] and len(words) <= 3 and not ends_sentence(line):
            continue
        if out and starts_in_lower_case(line) and not ends_sentence(out[-1]):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return out


def caption_under(title: str, line: str) -> bool:
    """Whether ``line``, under a title line, is the caption of an image of the term: three
    words or fewer, no sentence, naming the title's words and no others but the image's
    kind and short codes ("Infiltration icons" under "Infiltration icon", "Icon
    hiddenagenda" under "Hidden Agenda icon", "Icon 1e au"); "Borg Queen" under "Borg" is
    no caption."""
    words = line.split()
    if not 1 <= len(words) <= 3 or ends_sentence(line):
        return False
    have = {_stem(w).rstrip("s") for w in title.split() if w.casefold() not in SMALL_WORDS}
    # "icons" is "icon"; an alt text's short codes ("Icon 1e au") name nothing, and its
    # "Icon" is the image's kind ("Icon lantern" under "Lantern Signal Deck")
    named = {_stem(w).rstrip("s") for w in words if len(w) > 3}
    return bool(named & have) and named - {"icon"} <= have


def _stem(word: str) -> str:
    """A word's first letters, for "deck"/"decks" and "icon"/"icons" to match. Deliberately
    not the search's Snowball stems: those let a ruling's "Naming a Number" meet "names a
    number", and a committee ruling copied without its page's marks is refused, not read as
    a wiki's term (tests/ingest/test_single_ruling_variants.py)."""
    letters = "".join(c for c in word.casefold() if c.isalnum())
    # a plural's "s" first: "icons"[:5] is not "icon"
    return (letters[:-1] if len(letters) > 3 and letters.endswith("s") else letters)[:5]


def card_data(content: list[tuple[int, int, str]]) -> set[int]:
    """The positions in ``content`` of a card's data block: :data:`MIN_FIELDS` or more card
    field lines in a row ("Name: …", "Type: …", "Set: …", "Lore: …"), half of them short
    values ("Dilemma", "Premiere"); a glossary's "Range: A ship's range is…" terms in a row
    define, each at a sentence's length."""
    block: set[int] = set()
    run: list[int] = []
    wrapped: list[int] = []  # a field's value a wrap carried on to the next line
    width = spacing.wrap_width([line for _, _, line in content])
    for position, (row, _, line) in enumerate([*content, (-2, 0, "")]):
        if line and card_field(line):
            run.append(position)
            continue
        last = content[max(run[-1], wrapped[-1] if wrapped else -1)] if run else None
        if (
            last
            and row == last[0] + 1
            and (
                spacing.wrapped_at(last[2], line, width)
                or line[:1].islower()
                and not ends_sentence(last[2])
            )
        ):
            # "Lore: "Intelligent parasites … a gill like protrusion" / "on the back of …":
            # the field's value wrapped (a PDF's copy, a mail), not the text under the data
            wrapped.append(position)
            continue
        short = sum(1 for p in run if len(content[p][2].split(":", 1)[1].split()) <= 5)
        if len(run) >= MIN_FIELDS and 2 * short >= len(run):
            block.update(run + wrapped)
        run, wrapped = [], []
    return block


def _prose_above(
    content: list[tuple[int, int, str]], index: int, words: int = 25, at_least: int = 2
) -> bool:
    """Whether ``at_least`` paragraphs of prose (``words`` words or more each) stand above
    row ``index``."""
    above = sum(1 for i, _, line in content if i < index and len(line.split()) >= words)
    return above >= at_least


def _labelled_paragraphs(content: list[tuple[int, int, str]], index: int) -> int:
    """How many paragraphs but row ``index``'s open with a label of two words or more, in
    capitals, and a colon ("Doors Once Closed to You…: The Queen's Borg Cube's Range …"):
    a line of a dozen words after its label, or a sentence that runs on to the next line in
    lower case (a page wrapped to its width)."""
    count = 0
    for position, (i, _, line) in enumerate(content):
        found = _LABEL.match(line)
        label = found.group(1).split() if found else []
        if i == index or len(label) < 2 or not label[0][:1].isupper():
            continue
        above = content[position - 1] if position else None
        if above is not None and above[0] == i - 1 and not ends_sentence(above[2]):
            continue  # inside a paragraph wrapped to a width ("A Klingon Matter reads: …")
        words = len(line[found.end() :].split())
        below = content[position + 1] if position + 1 < len(content) else None
        runs_on = below is not None and below[0] == i + 1 and below[2][:1].islower()
        count += words >= 12 or words >= 3 and runs_on and not ends_sentence(line)
    return count


_LABEL = re.compile(r"([^:]{1,80}):\s")  # a paragraph's label, however the space is copied


def _title_over_a_tail(head: Head, content: list[tuple[int, int, str]]) -> bool:
    """Whether ``head``, the page's first, is the page's own title over the tail of an entry
    cut above ("Rules" over "chooses not to do so, the artifact is discarded."): a title
    line the project does not know, in capitals, whose text opens inside a sentence (in
    lower case or with a number). A glossary's own term in lower case may open its text in
    lower case; a title does not."""
    if head.style != LINE or head.known or not head.title[:1].isupper():
        return False
    if _prose_above(content, head.index, words=8, at_least=1):
        return False  # a term under a cut entry's tail, not the page's title at its top
    below = next((line for i, _, line in content if i > head.index), "")
    # a quote or a bracket may open the tail ('"wife", "mate", …'), and a number a sentence's
    # later part ("2370. Decent poker player."): its first character tells
    first = opening_character(below)
    return first.islower() or first.isdigit()


def _may_be_a_tail(head: Head, content: list[tuple[int, int, str]]) -> bool:
    """Whether ``head``, the page's first kept, is a ``words: text`` head the project does not
    know with no prose above it (at most the page's own title): a cut copy's first line is
    as often the end of the entry above ("brings to the game at least 60 cards: 5 different
    missions …", an item of its list: "4. Lose: Any effects …") as a term. So is a known
    term's over text in lower case ("species: for example, to download …"), and a known
    term that is a card's field too ("lore: Typical Starfleet ensign …", the card's new lore
    quoted in an entry cut above)."""
    return (
        head.style == COLON
        and (
            not head.known
            or starts_in_lower_case(head.rest)
            or head.title.casefold() in CARD_FIELDS
        )
        and head.confidence >= DOUBTFUL
        and not _prose_above(content, head.index, words=8, at_least=1)
    )


def _in_order(candidates: list[Head], total: dict[str, int]) -> set[int]:
    """The heads (by id) of each form whose titles run in a glossary's alphabetical order.
    The page's first head may stand out of it: a saved page's own title over its entries
    ("Rules" over "Bajoran Wormhole", "Borg", …) is no term of the letter."""
    ordered: set[int] = set()
    for style in total:
        heads = [h for h in candidates if h.style == style]
        if _alphabetical(heads):
            ordered.update(id(h) for h in heads)
        elif heads and heads[0] is candidates[0] and _alphabetical(heads[1:]):
            ordered.update(id(h) for h in heads[1:])
    # A term whose text opens in lower case ("romantic partner – a personnel is …") stands
    # in the order of the page's other dash heads, not in one of its own.
    dashes = [h for h in candidates if h.style in (DASH, LOWER)]
    if any(h.style == LOWER for h in dashes) and _alphabetical(dashes):
        ordered.update(id(h) for h in dashes if h.style == LOWER)
    return ordered


def _alphabetical(heads: list[Head]) -> bool:
    """Whether ``heads`` (of one form) run in alphabetical order as a glossary's do: three
    or more sharing their first letter (a letter page: "missions", "modifiers", "moving a
    ship"), or four or more across letters (one order in 24 by chance; three, one in six,
    is how often an article's headings run so). Headings of an article seldom do, so the
    order confirms the convention as titles the project knows would."""
    keys = [" ".join(h.title.casefold().split()) for h in heads]
    if len(keys) < 3 or keys != sorted(keys):
        return False
    # an article's headings "The Basics", "The Bad", "The Star Trek…" share only "The"
    words = [key.removeprefix("the ").removeprefix("a ") for key in keys]
    if len({word.split()[0] for word in words if word.split()}) == 1:
        # a series of one label ("Question #1: …", "Question #2: …") runs in its numbers'
        # order, whatever its titles: the order confirms nothing
        return False
    letters = {word[:1] for word in words}
    return len(keys) >= MIN_ORDERED or len(letters) == 1


def _nested_dash_heads_dropped(heads: list[Head]) -> list[Head]:
    """A page whose entries are title lines keeps one form for its entries: ``Title – text``
    paragraphs inside those entries ("Response actions - …" under "action") are sub-headings,
    left in the entry (whose "two entries may have been read as one" doubt names them)."""
    lines = [h for h in heads if h.style == LINE and h.confidence >= DOUBTFUL]
    if len(lines) < 2:
        return heads
    return [h for h in heads if not (h.style == DASH and h.index > lines[0].index)]


def _continues_sentence(rows: list[tuple[int, str]], index: int) -> bool:
    """Whether row ``index`` goes on with the sentence of the line just above it (a wrapped
    paragraph's last words, "…matching commander of" / "Jovis."): no title line."""
    if index == 0:
        return False
    above = rows[index - 1][1].strip()
    return bool(above) and not ends_sentence(above) and not above.endswith((":", ")", "!", "?"))


def _wraps_onto(rows: list[tuple[int, str]], index: int) -> bool:
    """Whether row ``index`` is the next line of a wrapped sentence: the line just above is
    prose (six words or more) that stops on a comma or on an article, a preposition or a
    conjunction ("…which both have the"), as no paragraph, list item or heading does."""
    if index == 0:
        return False
    words = rows[index - 1][1].split()
    return len(words) >= 6 and stops_at_a_joint(words)


def _run_on_below(
    rows: list[tuple[int, str]], index: int, line: str, found: tuple[str, str, str]
) -> tuple[str, str, str]:
    """``found``, the head of ``line`` (row ``index``), with its title run on to a later
    dash as :func:`subtitle_joined` judges the line joined with the next, where the line
    wraps into it ("Actions – Sequence of Steps – Every action" / "has three steps …": two
    words are too few to tell a sentence from a title's part); the rest is this line's."""
    title, rest, style = found
    following = rows[index + 1][1].strip() if index + 1 < len(rows) else ""
    if not goes_on_below(rest, following):
        return found
    joined = f"{line} {following}"
    longer, text, _ = subtitle_joined(joined, (title, f"{rest} {following}", style))
    if longer == title or not text.endswith(following) or len(text) <= len(following):
        return found
    return longer, text[: -len(following)].rstrip(), style


def goes_on_below(rest: str, following: str) -> bool:
    """Whether ``rest``, the text on a head's line, goes on in ``following``, the line under
    it with no blank line between: it ends no sentence and the next line carries it on in
    lower case, or it stops on a comma or a small word (a line wrapped to a width)."""
    return (
        bool(rest and following)
        and not ends_sentence(rest)
        and not rest.endswith((":", "!", "?"))
        and (following[:1].islower() or stops_at_a_joint(rest.split()))
    )


def stops_at_a_joint(words: list[str]) -> bool:
    """Whether a line's ``words`` stop on a comma or on an article, a preposition or a
    conjunction ("… one personnel on a"): its sentence goes on on the next line."""
    return bool(words) and (words[-1].endswith(",") or words[-1] in SMALL_WORDS)


def _anchor_sections(rows: list[tuple[int, str]], anchors: dict[int, str]) -> list[str | None]:
    """For each row, the letter page's anchor whose section it stands in ("back to top of
    page mo" above "modifiers", "moving a ship", … up to the next anchor), else None: one
    pass over the page."""
    sections: list[str | None] = []
    token = None
    for number, _ in rows:
        token = anchors.get(number, token)
        sections.append(token)
    return sections


def _anchored(title: str, token: str | None) -> bool:
    """Whether a title line stands in a letter page's section ("back to top of page mo")
    and starts as its anchor does: the page's own index confirms the head."""
    return token is not None and title.casefold().startswith(token)


def _no_sentence(rows: list[tuple[int, str]], index: int, rest: str) -> bool:
    """Whether the text after a ``title: text`` head is a few words that end no sentence and
    go on on no next line (a card list's "Piece 1 TNG Rare"): an entry's text is a sentence."""
    if len(rest.split()) >= 6 or ends_sentence(rest) or rest.endswith(("!", "?", ":")):
        return False
    following = rows[index + 1][1].strip() if index + 1 < len(rows) else ""
    return not following[:1].islower()


def _subtitled(rows: list[tuple[int, str]], index: int, rest: str) -> bool:
    """Whether a ``title - rest`` line is a heading with a subtitle, not an entry: a line of
    its own (a blank line after it) whose short rest ends no sentence (a document host's
    banner, "1e star trek customizable card game - 21 the borg rules supplement")."""
    alone = index + 1 < len(rows) and not rows[index + 1][1].strip()
    if introduces_text(rest):
        return False  # "scouting location – Add the following": an entry's instruction
    # "Dilemmadeck - Wie konstruiere ich einen wirksamen Dilemma-Stapel?": an article's
    # heading asks its question; an entry's text states its rule.
    return alone and len(rest.split()) < 12 and (not ends_sentence(rest) or rest.endswith("?"))


_UNWRAPPED = 120  # characters: longer than a line any document wraps its paragraphs to


def _opens_paragraph(rows: list[tuple[int, str]], index: int) -> bool:
    """Whether row ``index`` starts a paragraph (a weak head must, as a wrapped line of
    prose holding a dash does not)."""
    if index == 0:
        return True
    above = rows[index - 1][1].strip()
    # a copy that prints each paragraph on one line and drops the blank lines between them
    # (a forum's or a chat's paste): a line above longer than any page wraps to, ending its
    # sentence, ends its paragraph
    return not above or (len(above) > _UNWRAPPED and ends_sentence(above))


def _lower_confidence(head: Head, known: int) -> float:
    """A ``TITLE - text in lower case`` head: none unless two dash heads of the page are
    known titles; an unknown one even then is a doubt."""
    if known < 2:
        return LONE if head.known else 0.0
    return 0.9 if head.known else LONE


def _confidence(head: Head, known: int, total: int) -> float:
    """How sure the reader is that ``head`` opens an entry (0: it does not)."""
    if head.style == RUN_IN:
        return 0.9 if head.known else 0.7  # the page's doubt covers where each one ends
    if head.style == GLUED:
        # where a title ends and its text begins is a guess the page confirms only by
        # printing known titles so: a doubt, and none alone
        return GUESSED_END if known >= 2 else 0.0
    if head.style == DATED:
        return 0.9
    if head.known:
        if known >= 2 or head.style == DASH:
            return 0.95
        # A lone known "title: text" or title line: the page confirms the convention by no
        # other known head. Printed like heads the project does not know ("PICTURE:",
        # "LORE:", "TREK SENSE:" in a card review), it is one label among labels whose word
        # happens to be a card ("Lore"); alone, it may be a card quoted in a post: a doubt.
        return 0.0 if total - known >= 2 else LONE
    if head.style == DASH:
        return 0.75 if known >= 2 else 0.5
    # "title: text" and title lines are weak conventions (labels, headings, "YES:", "NO:"):
    # an unknown one is a head only on a page whose other such heads the project knows, and
    # even there a title line may be the post's or the section's own heading: a doubt.
    if known < 2:
        return 0.0
    return 0.55 if head.style == LINE else 0.7


_ANCHOR = re.compile(r"top of page ([a-z]{1,3})$", re.I)


def anchors_of(page: chrome.Chrome) -> dict[int, str]:
    """The letter page's anchors among the chrome removed, by line: "back to top of page
    mo" -> "mo"."""
    return {
        number: match.group(1).casefold()
        for number, _, line in page.removed
        if (match := _ANCHOR.search(line))
    }
