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

Each entry gets a confidence. A head the project does not know, on a page that does not
confirm the convention by known heads, is a *doubt*: the preview cannot be applied until a
moderator confirms or corrects it. Text that no head claims is listed by line, never
guessed into an entry. A page where no head is found is refused as what it looks like
(navigation, a preamble, a table of contents): no entry is ever made of a page's first line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import ends_sentence, is_list_item
from bot.ingest.reader import chrome, runin
from bot.ingest.reader.common import (
    ISO,
    bylined,
    doubt_missed_heads,
    entry_of,
    introduces_text,
    paragraphs,
    take_cards,
    unglue_marks,
)
from bot.ingest.reader.known import QUESTION_WORDS, is_known, most_words_from
from bot.ingest.reader.model import Parsed

DASH, COLON, LINE, DATED, RUN_IN = "dash", "colon", "line", "dated", "run-in"
LOWER = "dash, text in lower case"  # "10 AND 01 - sono di genere maschile."
DOUBTFUL = 0.6  # an entry below this confidence is a doubt that blocks applying
LONE = 0.55  # a lone known head the page confirms by nothing else
ORDERED = 0.7  # an unknown head among heads in a glossary's alphabetical order
# " -- " is how plain text (FAQ files, mail) prints a dash: "TIMING -- This has been…".
_SEPARATOR = re.compile(r"\s(?:[–—-]|--)\s")
_DATED = re.compile(rf"\s({ISO})$")
_MARK = re.compile(r"^(?:\*\s?|❖\s?)")
# Words that open a labelled paragraph of an entry, never an entry of their own.
_LABELS = frozenset(
    "example examples note notes q a question answer answers for example erratum errata "
    "clarification clarifications date updated posted by category categories see also "
    "applicable cards applicable card source taken from rulings ruling effective".split(" ")
) | {"for example", "applicable cards", "applicable card", "taken from", "see also"}
_CONNECTIVES = frozenset(
    "and or but if when then so with for to of in on at by as is are was were that this "
    "these those it its you your he she they we".split()
)


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


def _title_ok(title: str, alone: bool = False) -> bool:
    """Whether ``title`` can be an entry title by its form alone (``alone``: printed on a
    line of its own, where "Q" is the card, not the "Q:" of a question)."""
    if title.endswith((", etc.", " etc.")):  # "nearest planet, etc.": an abbreviation's stop
        return _title_ok(title[: title.rfind("etc.")].rstrip(" ,"), alone)
    words = title.split()
    if title.startswith(("See ", "see ", "(", "-", "–")) or is_list_item(title) or "|" in title:
        return False
    if title.casefold() in _LABELS:
        return alone and is_known(title)
    if title.endswith(":") or ends_sentence(title) and not title.endswith(("!", "?", ".", ")")):
        return False  # "…during an opponent's action:" leads into a list
    if _known_title(title):
        # A card's printed title may hold what a sentence holds ("James T. Kirk, Original
        # Thinker": an initial; "Weyoun, "Defective" Clone": quotes); knowing it settles it.
        return True
    if not 1 <= len(words) <= 8 or len(title) > 70:
        return False
    if words[0].casefold() in _CONNECTIVES:
        return False
    if words[0].casefold() in QUESTION_WORDS and not is_known(title):  # "What Are Friends For?"
        return False
    if (
        re.search(r"[;\"]|\.\s", title)
        or ends_sentence(title)
        and not title.endswith(("!", "?", ")"))
    ):
        return False
    if "," in title or title.endswith(("!", "?")):
        return is_known(title)
    return title[:1].isalnum() or title[:1] in "'‘“[" and is_known(title)


def _known_title(title: str) -> bool:
    """Whether ``title`` is a known title, or two joined by "and" (one ruling on two cards:
    ``Weyoun, "Defective" Clone and Jean-Luc Picard, Worf's cha'DIch``)."""
    if len(title) > 120:
        return False
    if is_known(title):
        return True
    first, joined, second = title.partition(" and ")
    return bool(joined) and is_known(first) and is_known(second)


def _label_under(title: str, below: tuple[str, str, str]) -> bool:
    """Whether the ``title: text`` line ``below`` a known title line is that entry's label
    ("Interim erratum: …" under "James T. Kirk, Original Thinker"), not an entry's head."""
    return below[2] == COLON and _known_title(title) and not _known_title(below[0])


def _rest_ok(rest: str) -> bool:
    """Whether ``rest`` reads as the start of an entry's text."""
    if rest.startswith(("See ", "(")):
        return True
    if rest.endswith(":") and rest[:-1].casefold() in _LABELS:
        return True  # "Manheim's Dimensional Door – Example:", the example on the next line
    if " · " in rest[:80] or " | " in rest[:80]:
        return False  # "Starship Excelsior · 2018-05-06 · …": a link's site and date
    words = rest.split()
    # A sentence has a word in lower case among its first words; a subtitle or a document's
    # banner does not ("BASIC RULES Version 2.0.9 — February 2020 Last Updated 3 February").
    return (
        len(words) >= 3
        and (rest[:1].isupper() or rest[:1].isdigit() or rest[:1] in "\"“'‘")
        and any(word[:1].islower() for word in words[:8])
    )


def _inline(line: str) -> tuple[str, str, str] | None:
    """(title, rest, style) of a ``title – text`` or ``title: text`` line, else None. Of
    several dashes, the longest known title wins, else the first that reads as a title."""
    first = None
    for match in _SEPARATOR.finditer(line[:120]):
        title, rest = line[: match.start()].strip(), line[match.end() :].strip()
        if not _rest_ok(rest) or _inside_known_title(line, title):
            continue
        if is_known(title):
            first = (title, rest, DASH)  # a longer known title later still wins
        elif first is None and _title_ok(title):
            first = (title, rest, DASH)
    if first:
        return _subtitle_joined(line, first)
    if lower := _lower_dash(line):
        return lower
    colon = line.find(": ", 0, 80)
    if colon > 0:
        title, rest = line[:colon].strip(), line[colon + 2 :].strip()
        if _title_ok(title) and _rest_ok(rest):
            return title, rest, COLON
    return _glued(line)


def _subtitle_joined(line: str, head: tuple[str, str, str]) -> tuple[str, str, str]:
    """``head`` with its title run on to a later dash when what lies between is a title's
    part in capitals ("Actions – Step 2: Responses – After an action…"), not a sentence."""
    title, rest, style = head
    if (after := _SEPARATOR.search(rest[:80])) is None:
        return head
    segment, text = rest[: after.start()].strip(), rest[after.end() :].strip()
    words = segment.split()
    if not 1 <= len(words) <= 6 or not _rest_ok(text) or ends_sentence(segment):
        return head
    if is_known(title) and not any(c.isdigit() or c == ":" for c in segment):
        return head  # a known title runs on only into a numbered part ("Step 2: Responses")
    if all(w[:1].isupper() or w[:1].isdigit() for w in words):
        return line[: line.find(segment) + len(segment)].strip(), text, style
    return head


def _inside_known_title(line: str, title: str) -> bool:
    """Whether the dash after ``title`` is part of a known title that goes on past it
    ("Armus - Skin of Evil randomly selects…"): a card's name, not a separator."""
    words = line[:240].split()  # a title is short: the line's start is enough
    most = most_words_from(words[0]) if words else 0
    start = len(title.split()) + 2  # the title, the dash, at least one word after it
    return any(is_known(" ".join(words[:k])) for k in range(start, min(most, 12) + 1))


def _lower_dash(line: str) -> tuple[str, str, str] | None:
    """(title, rest, LOWER) of a ``TITLE - text`` line whose text starts in lower case, as
    some translations and notes print entries: a weak head, taken only where the page
    confirms its dash heads by titles the project knows (prose has dashes too)."""
    match = _SEPARATOR.search(line[:120])
    if match is None:
        return None
    title, rest = line[: match.start()].strip(), line[match.end() :].strip()
    if len(rest.split()) >= 3 and rest[:1].islower() and _title_ok(title):
        return title, rest, LOWER
    return None


_ICONS = re.compile(r"(?:\[[^\]\s]{1,12}\]\s*+)*+")  # "[S/P] " icon codes before a title


def _glued(line: str) -> tuple[str, str, str] | None:
    """(title, rest, style) of a known title in capitals run into its text, as PDF text
    copies a bold title (``[S/P] A FAST SHIP WOULD BE NICEKills one personnel…``): the
    title ends where a capital starts a word in lower case."""
    start = _ICONS.match(line).end()
    for index in range(start + 1, min(len(line) - 1, start + 70)):
        char = line[index]
        if char.isupper() and line[index + 1].islower() and line[index - 1].isupper():
            title = line[start:index].strip()
            if title.upper() == title and is_known(title) and _rest_ok(line[index:]):
                return title, line[index:].strip(), DASH
            return None
        if char.islower():
            return None
    return None


def _prose(line: str) -> bool:
    # a title line with its annotation ("ability (updated by Current Rulings)") is no prose
    return len(_without_annotation(line).split()) >= 5


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
    if _prose(line):
        return True
    if line.startswith("See ") and line.endswith("."):
        return True
    return len(line.split()) <= 3 and line.endswith(":") and _prose(after)


def find_heads(
    rows: list[tuple[int, str]],
    inside: dict[int, Head] | None = None,
    anchors: dict[int, str] | None = None,
) -> list[Head]:
    """Every candidate head in ``rows`` ((line number, text) of the page with its chrome
    blanked), each with its confidence; candidates the page does not confirm are dropped.
    ``inside`` holds the heads already found inside running text, by row; ``anchors`` the
    letter page's "back to top of page xx" anchors, by line number."""
    inside = inside or {}
    anchors = anchors or {}
    candidates: list[Head] = []
    content = [(i, n, line.strip()) for i, (n, line) in enumerate(rows) if line.strip()]
    for position, (index, number, line) in enumerate(content):
        if index in inside:
            candidates.append(inside[index])
            continue
        if position and introduces_text(content[position - 1][2]):
            continue  # "…with the following:" / "Objectives – …": the text it introduces
        marked = bool(_MARK.match(line))
        bare = _MARK.sub("", line).strip()
        if (found := _inline(bare)) and (found[2] != LOWER or _opens_paragraph(rows, index)):
            title, rest, style = found
            if style == DASH and _subtitled(rows, index, rest) and not is_known(title):
                continue  # "Document title - its subtitle" on a line of its own
            if style == COLON and _no_sentence(rows, index, rest):
                continue  # "Vulcan Stone of Gol: Piece 1 TNG Rare": a list's item, no text
            candidates.append(Head(index, number, title, rest, style, _known_title(title), marked))
            continue
        if (date := _DATED.search(bare)) and _title_ok(bare[: date.start()].strip()):
            title = bare[: date.start()].strip()
            candidates.append(
                Head(index, number, title, "", DATED, _known_title(title), marked, date.group(1))
            )
            continue
        following = content[position + 1][2] if position + 1 < len(content) else ""
        after = content[position + 2][2] if position + 2 < len(content) else ""
        bare = _without_annotation(bare)
        if (
            _title_ok(bare, alone=True)
            and (len(bare.split()) <= 6 or _known_title(bare))
            and not _continues_sentence(rows, index)
            and (_text_follows(following, after) or _cut_at_end(content, position))
            and (not (next_head := _inline(following)) or _label_under(bare, next_head))
        ):
            known_here = _known_title(bare) or _anchored(rows, index, bare, anchors)
            candidates.append(Head(index, number, bare, "", LINE, known_here, marked))
    if bylined([line for _, _, line in content[:15]]):
        # An article or a post ("by Jon Carter, Rules Master") tells its news in labelled
        # paragraphs and under headings ("Mas'ud: At the beginning of May, …"): only the
        # rules documents' own "title – text" heads (a quoted update) are entries there.
        candidates = [h for h in candidates if h.style not in (COLON, LINE)]
    # A title printed as a head more than once is a label ("YES:", "Note:"), not an entry.
    seen: dict[str, int] = {}
    for head in candidates:
        seen[head.title.casefold()] = seen.get(head.title.casefold(), 0) + 1
    # A Current Rulings update lists an entry under its changes and again under its rulings:
    # repeated "title - text" heads are entries (the duplicate-title doubt names them).
    candidates = [
        h for h in candidates if seen[h.title.casefold()] == 1 or h.known or h.style == DASH
    ]
    known = {style: 0 for style in (DASH, COLON, LINE, DATED, RUN_IN, LOWER)}
    total = dict(known)
    for head in candidates:
        total[head.style] += 1
        known[head.style] += head.known
    ordered = {
        style for style in total if _alphabetical([h for h in candidates if h.style == style])
    }
    kept: list[Head] = []
    opening = content[0][0] if content else -1
    for head in candidates:
        if head.style == LOWER:  # confirmed by the page's dash heads of either kind
            head.confidence = _lower_confidence(head, known[DASH] + known[LOWER])
        else:
            head.confidence = _confidence(head, known[head.style], total[head.style])
            if head.style in ordered and not head.known and 0 < head.confidence < DOUBTFUL:
                head.confidence = ORDERED
            elif head.style in ordered and head.confidence == 0:
                head.confidence = 0.95 if head.known else ORDERED
        if head.confidence == LONE and head.index == opening:
            # A lone known head that opens the upload is a moderator's one-ruling text;
            # after a post's or article's prose it may be a card quoted in a discussion.
            head.confidence = 0.8
        elif head.confidence == LONE and head.known and _prose_above(content, head.index):
            # under paragraphs of an article ("Make It So" as a review's section heading),
            # a card's title is a heading or a quote, not a ruling: no entry at all
            head.confidence = 0.0
        if head.confidence > 0:
            kept.append(head)
    return _nested_dash_heads_dropped(kept)


def _prose_above(content: list[tuple[int, int, str]], index: int) -> bool:
    """Whether two paragraphs of prose (25 words or more each) stand above row ``index``."""
    return sum(1 for i, _, line in content if i < index and len(line.split()) >= 25) >= 2


def _alphabetical(heads: list[Head]) -> bool:
    """Whether ``heads`` (of one form) run in alphabetical order as a glossary's do: three
    or more sharing their first letter (a letter page: "missions", "modifiers", "moving a
    ship"), or six or more. Headings of an article seldom do, so the order confirms the
    convention as titles the project knows would."""
    keys = [" ".join(h.title.casefold().split()) for h in heads]
    if len(keys) < 3 or keys != sorted(keys):
        return False
    return len(keys) >= 6 or len({key[:1] for key in keys}) == 1


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


def _anchored(rows: list[tuple[int, str]], index: int, title: str, anchors: dict[int, str]) -> bool:
    """Whether a letter page's anchor just above the title line ("back to top of page mo",
    above "modifiers") starts as the title does: the page's own index confirms the head."""
    above = index - 1
    while above >= 0 and not rows[above][1].strip():
        if (token := anchors.get(rows[above][0])) and title.casefold().startswith(token):
            return True
        above -= 1
    return False


def _without_annotation(line: str) -> str:
    """A title line without the annotation printed after it ("ability (updated by Current
    Rulings)"), unless the whole line is a known title (a card's name may hold parentheses)."""
    if not line.endswith(")") or "(" not in line or _known_title(line):
        return line
    title = line[: line.rfind("(")].strip()
    # a remark is a phrase in lower case ("updated by Current Rulings"); a word or two, or a
    # name, in parentheses is the title's own ("(non-Borg)", "(Six of Seventeen)")
    remark = line[line.rfind("(") + 1 : -1].split()
    is_remark = len(remark) >= 3 and remark[0][:1].islower()
    return title if title and len(line) - len(title) <= 60 and is_remark else line


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
    # "Dilemmadeck - Wie konstruiere ich einen wirksamen Dilemma-Stapel?": an article's
    # heading asks its question; an entry's text states its rule.
    return alone and len(rest.split()) < 12 and (not ends_sentence(rest) or rest.endswith("?"))


def _opens_paragraph(rows: list[tuple[int, str]], index: int) -> bool:
    """Whether row ``index`` starts a paragraph (a weak head must, as a wrapped line of
    prose holding a dash does not)."""
    return index == 0 or not rows[index - 1][1].strip()


def _lower_confidence(head: Head, known: int) -> float:
    """A ``TITLE - text in lower case`` head: none unless two dash heads of the page are
    known titles; an unknown one even then is a doubt."""
    if known < 2:
        return 0.0
    return 0.9 if head.known else LONE


def _confidence(head: Head, known: int, total: int) -> float:
    """How sure the reader is that ``head`` opens an entry (0: it does not)."""
    if head.style == RUN_IN:
        return 0.9 if head.known else 0.7  # the page's doubt covers where each one ends
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


def _rows(text: str) -> tuple[list[tuple[int, str]], chrome.Chrome]:
    page = chrome.strip(text)
    rows: list[tuple[int, str]] = []
    for number, line in enumerate(page.text.split("\n"), 1):
        rows += ((number, piece) for piece in _unglued(line))
    return rows, page


def _unglued(line: str) -> list[str]:
    return unglue_marks(line, lambda text: _inline(text) is not None)


def split_run_together(
    rows: list[tuple[int, str]],
) -> tuple[list[tuple[int, str]], dict[int, Head], list[int]]:
    """``rows`` with each long line that holds entries split at the heads inside it (the
    pieces keep the line's number), the heads by row, and the numbers of the lines split."""
    found = {
        index: heads
        for index, (_, line) in enumerate(rows)
        if len(line) >= runin.RUN_LINE
        # one head at a long line's start is a long entry, not entries run together
        and len(heads := runin.find(line)) >= 2
    }
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


def detect(text: str) -> float:
    rows, page = _rows(text)
    rows, inside, _ = split_run_together(rows)
    heads = find_heads(rows, inside, anchors_of(page))
    return 0.4 if heads and not _index_of_terms(heads, rows) else 0.0


def parse(text: str) -> Parsed:
    result = Parsed()
    rows, page = _rows(text)
    rows, inside, split = split_run_together(rows)
    heads = find_heads(rows, inside, anchors_of(page))
    if not heads or _index_of_terms(heads, rows):
        return result
    for number in split:
        result.warnings.append(
            ParseWarning(
                number,
                f"line {number} runs entries together (text whose line breaks were lost): "
                f"{sum(1 for h in heads if h.line == number)} entries were found inside it "
                "(by titles the project knows, or by heads printed 'Title – text'); check "
                "where each one begins and ends, then "
                f"confirm the line ({{line: {number}, confirm: true}}) or upload the text with "
                "a line break before each entry",
                doubt=True,
            )
        )
    before = [(n, line.strip()) for n, line in rows[: heads[0].index] if line.strip()]
    doubt_missed_heads(result, before, "before the first entry")
    if before and before[0][1][:1].islower():  # cut mid-sentence: an entry's tail
        result.ignored(before, "the page starts inside an entry whose title is not on it")
    else:
        result.ignored(before, "text before the first entry, not placed")
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
        body, cards = take_cards(body)
        texts = ([head.rest] if head.rest else []) + [p for _, p in paragraphs(body)]
        entry = entry_of(head.title, texts, head.line, cards, head.date)
        entry.marked_new = head.marked_new
        entry.confidence = head.confidence
        result.entries.append(entry)
        if head.confidence < DOUBTFUL:
            result.warnings.append(
                ParseWarning(
                    head.line,
                    f"entry {head.title!r} (confidence {head.confidence:.2f}): "
                    + _why_doubted(head),
                    doubt=True,
                )
            )
        if not texts:
            result.warnings.append(
                ParseWarning(head.line, f"entry {head.title!r} has no text", doubt=True)
            )
    if page.removed:
        kinds = sorted({kind for _, kind, _ in page.removed})
        result.warnings.append(
            ParseWarning(
                page.removed[0][0],
                f"page chrome removed ({len(page.removed)} lines: {', '.join(kinds)})",
            )
        )
    return result


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


def _why_doubted(head: Head) -> str:
    if head.known:
        return (
            "the only head of its form on the page, after text that is not placed: it may be "
            "a card named in a post or an article; check that it is an entry"
        )
    if head.style == LOWER:
        return (
            "the project knows no card or topic of this title and its text starts in lower "
            "case (a weak sign of an entry); check that it is an entry, not a sentence's dash"
        )
    return (
        "the project knows no card or topic of this title"
        + (
            "; a title line of its own may be the page's or a section's heading"
            if head.style == LINE
            else f" and the page does not confirm its '{head.style}' heads"
        )
        + "; check that it is an entry, not a heading or part of the entry before"
    )


def diagnose(text: str) -> str:
    """What a page with no entry heads looks like, for the refusal."""
    page = chrome.strip(text)
    lines = [line.strip() for line in page.text.split("\n") if line.strip()]
    prose = any(len(line.split()) >= 20 for line in lines)
    if not lines or page.share >= 0.5 and not prose:
        return "navigation (site menus and link lists)"
    short = sum(1 for line in lines if len(line.split()) < 8)
    if short >= 0.6 * len(lines) and len(lines) >= 5:
        return "a table of contents (short lines with no ruling text under them)"
    return "a preamble or an article (prose with no entry titles the reader can find)"
