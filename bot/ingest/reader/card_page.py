"""``card-page``: a card database's page for one card, with the rulings on that card.

Shape (openCards prints its 1E and 2E card pages so): the card's title with its rarity and
set, ``Dead End Uncommon card from First Contact (1997)`` (on one line, or the title on the
line above), its lore and game text, then ``Rule notes`` and the rulings on the card, each
source named before its text ("Major Rakal's Dilemma Facts If you meet conditions…"),
perhaps "Taken from: …" last. The entry is the card's rulings, titled with the card: the
lore and game text are the card's, not a ruling. A card page without rule notes holds no
ruling and is refused.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.parsers.text import ends_sentence
from bot.ingest.reader import chrome
from bot.ingest.reader.card_text import card_by_text, page_names, prints_text_of
from bot.ingest.reader.common import entry_of, lines_of, unwrapped, without_card_mark
from bot.ingest.reader.head_forms import card_field, names_a_source, title_ok
from bot.ingest.reader.known import is_card, is_known
from bot.ingest.reader.lookalike import speaks_as_i
from bot.ingest.reader.model import Parsed
from bot.ingest.reader.page_checks import drop_or_confirm

_FROM = " card from "
_YEAR = re.compile(r"\(\d{4}\)")
_NOTES = "Rule notes"
_RARITIES = frozenset(
    "common uncommon rare super ultra fixed promo premium virtual starter reprint foil "
    "special alternate image".split()
)


def _card_line(rows: list[tuple[int, str]]) -> tuple[int, str] | None:
    """(row, card title) of the "<title> <rarity> card from <set> (<year>)" line, the title
    known to the project or printed with its rarity (not "this is a card from …" in prose)."""
    for index, (_, line) in enumerate(rows[:60]):
        line = line.strip(" |")
        at = line.find(_FROM)
        if at < 0 or not _YEAR.search(line[at : at + 90]):
            continue
        words = line[:at].split()
        rarity = False
        while words and words[-1].casefold() in _RARITIES:
            words.pop()
            rarity = True
        title = " ".join(words)
        if not title:  # the title on the line above: "Dead End" / "Uncommon card from …"
            above = [r for r in rows[:index] if r[1].strip(" |")]
            title = above[-1][1].strip(" |") if above else ""
        if title and (is_known(title) or rarity and len(title.split()) <= 8):
            return index, title
        return None
    return None


# openCards' other card page: the card's title first, its data, then each ruling announced
# ("This card has an erratum:", "This card has an clarification:") and closed by its source
# ("Taken form Glossary - Version 1.9.2.").
_ANNOUNCED = re.compile(
    r"^This card has an? (?:erratum|errata|clarification|ruling)s?:(?:\s+(\S.*))?$", re.I
)


def _announced(rows: list[tuple[int, str]]) -> list[int]:
    return [i for i, (_, line) in enumerate(rows) if _ANNOUNCED.match(line.strip())]


# openCards prints an official document's words on a card as a review by its own account:
# "Quote from Alternate Universe Rulesheet:" over the quote (a forum's "Quote from Jaffer:"
# names a person, not a rules document).
_QUOTE = re.compile(r"^Quote from ([^:]{3,80}):$")
_RULES_DOCUMENT = re.compile(r"\b(?:rule|glossary|supplement|rulings|faq)", re.I)


def _quoted(rows: list[tuple[int, str]], after: int) -> list[int]:
    """The rows after ``after`` that open a quote of a rules document on the card."""
    return [
        i
        for i, (_, line) in enumerate(rows)
        if i > after
        and (match := _QUOTE.match(line.strip()))
        and _RULES_DOCUMENT.search(match.group(1))
    ]


# openCards' page of a card whose Glossary clarification follows the game text with no
# label ("Place in hand until played …" / "This artifact allows you to …"): the ruling
# opens by naming the card's type, as the Glossary's card entries do.
_THIS = re.compile(r"^This (\w+)\b")
_CHARACTERISTICS = "Characteristics:"  # openCards' last line of a card's data


def _this_type(paragraph: str) -> str | None:
    """The card's type ``paragraph`` opens by naming the card with ("This mission …"),
    folded, or "card"; else None."""
    match = _THIS.match(paragraph)
    return match.group(1).casefold() if match else None


def _game_text_above(content: list[tuple[int, str]], k: int) -> int:
    """The line above ``content[k]`` past the card's data fields printed under its game
    text ("Characteristics: Alpha Quadrant Mission.")."""
    above = k - 1
    while above > 0 and (
        card_field(content[above][1]) or content[above][1].startswith(_CHARACTERISTICS)
    ):
        above -= 1
    return above


_AFTER_RULING = re.compile(r"^(?:This Card-Review|Card logging info)\b", re.I)


def _unlabelled(rows: list[tuple[int, str]], text: str) -> tuple[int, str, int, bool, bool] | None:
    """(row where the card's ruling opens, the card's title, line of its game text, whether
    the card is named by that text alone, whether a source line closes the ruling) of a page
    whose first lines name a card (or print its text), whose game text is printed, and whose
    next paragraph opens "This <the card's type>" or "This card", or is closed by the line
    naming the rules document it was taken from ("Taken form Glossary - Version 1.9.5.")."""
    content = [(i, line.strip()) for i, (_, line) in enumerate(rows) if line.strip()][:40]
    sourced = next(
        (
            k
            for k, (_, line) in enumerate(content)
            if names_a_source(line) and _RULES_DOCUMENT.search(line)
        ),
        0,  # none: no paragraph is closed by a source
    )
    opening = [
        k
        for k, (_, line) in enumerate(content)
        # a review's "This artifact is one of my favourites" speaks as "I": no ruling
        if k
        and (_this_type(line) or k < sourced)
        and not _AFTER_RULING.match(line)
        and not speaks_as_i(line)
    ]
    if not opening:
        return None
    named = _first_title(rows)
    by_text = named is None  # a copy from below the card's name: named by its text
    named = named or card_by_text(rows, text)
    if named is None:
        return None
    for k in opening:
        above = _game_text_above(content, k)
        kind = prints_text_of(content[above][1], named[1])
        if kind is None:
            continue
        text_line = rows[content[above][0]][0]
        if k < sourced:
            return content[k][0], named[1], text_line, by_text, True
        if _this_type(content[k][1]) in {*kind.split("/"), "card"}:
            return content[k][0], named[1], text_line, by_text, False
    return None


def _first_title(rows: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The card's title: the first of the page's first lines that names a card the project
    knows ("Temporal Rift | openCards", the browser's page title, counts without its site),
    whole or on either side of a colon: a series' heading over the card ("RR #11: Romulan
    Ambush"), or the card's title run into its lore ("Rhomboid Dronegar Sector: Respond to
    distress call…")."""
    lines = [(n, line.strip()) for n, line in rows if line.strip()][:6]
    for at, (number, line) in enumerate(lines):
        if card_field(line):
            continue  # "Requirements: ENGINEER + …": the card's data, never its title
        if at and _wraps_on(lines[at - 1][1]):
            continue  # "… addiction to the drug" / "Ketracel-White.": the lore's last words
        whole, before, after = _title_parts(line)
        for title in (whole, before, after) if after else (whole,):
            # a card, not a topic: a keyword opens a 2E card's text ("Consume: 2. …")
            if is_card(title):
                return number, title
    return _unknown_card(lines[0]) if lines else None


def _wraps_on(line: str) -> bool:
    """Whether ``line`` is prose a wrap carried on to the next line: a sentence's words (eight
    or more) with no stop at their end."""
    return len(line.split()) >= 8 and not ends_sentence(line)


_COST = re.compile(r"^\(\d{1,2}\)\s+")  # a 2E card's cost before its name: "(3) Tragic Turn"


def _title_parts(line: str) -> tuple[str, str, str]:
    """``line`` without its site's name (" | openCards"), a 2E card's cost and a card's mark
    ("❖"), and its parts before and after its first colon."""
    whole = _COST.sub("", line.split(" | ")[0].strip())
    before, _, after = whole.partition(": ")
    return without_card_mark(whole), without_card_mark(before), without_card_mark(after.strip())


def _unknown_card(first: tuple[int, str]) -> tuple[int, str] | None:
    """A card the project does not know yet (a card list older than the page), named by
    the page's first line: alone, or run into its lore ("Rhomboid Dronegar Sector: Respond
    to distress call…"). Read with a doubt, for a moderator to confirm or correct."""
    number, line = first
    title = _title_parts(line)[1]
    words = title.split()
    if card_field(line) or not title_ok(title, alone=True) or len(words) > 6:
        return None
    if len(words) == 2 and words[0] == words[1]:
        return None  # "Doorway Doorway": the card's type, its icon's alt text and its name
    return number, title


def _notes_alone(rows: list[tuple[int, str]]) -> bool:
    """A card page's "Rule notes" cell on a line of its own."""
    return any(line.strip(" |") == _NOTES for _, line in rows)


def detect(text: str) -> float:
    rows = unwrapped(lines_of(text))  # a card's game text wraps on a printed page
    if _card_line(rows) is not None:
        return 0.9
    if _announced(rows) and (_first_title(rows) or card_by_text(rows, text)):
        return 0.9
    if _announced(rows) and any(names_a_source(line) for _, line in rows):
        # a card's announced rulings, closed by their sources, on a copy that lost the
        # card's name: refused as such (parse), not as an article
        return 0.9
    if _notes_alone(rows):
        # a card page whose copy lost the card's title line: refused as such (parse), never
        # read as a Glossary whose cells are the card's data ("Q-Card Typ: Dilemma; …")
        return 0.9
    return 0.9 if _unlabelled(rows, text) else 0.0


def _parse_announced(
    rows: list[tuple[int, str]],
    starts: list[int],
    title: str,
    result: Parsed,
    by_text: int | None = None,
) -> Parsed:
    """Each announced ruling of the card (``starts``: the rows that announce them), up to
    its source line, as an entry titled ``title`` (named by the game text on line
    ``by_text``, if the page does not print it)."""
    result.ignored(
        [(n, line.strip()) for n, line in rows[: starts[0]] if line.strip()],
        "the card's lore and data" if by_text is not None else "the card's title, lore and data",
        ": the card's, not a ruling",
    )
    quotes = _quoted(rows, starts[0])
    starts = sorted(starts + quotes)
    for position, at in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(rows)
        if at in quotes:
            _read_quote(rows, at, end, title, result)
            continue
        opened, texts, closed = rows[at][0], [], False
        if inline := _ANNOUNCED.match(rows[at][1].strip()).group(1):
            texts.append(inline)  # "This card has an erratum: Game text before errata: …"
        for index in range(at + 1, end):
            line = rows[index][1].strip()
            if names_a_source(line):
                # Each ruling is closed by its source: text closed by a source of its own
                # is the card's next ruling, announced or not ("This card has an erratum:"
                # / … / "Taken form Glossary" / "There are …" / "Taken form Glossary").
                if texts:
                    result.entries.append(entry_of(title, texts, opened, [title]))
                opened, texts, closed = 0, [], True
            elif line:
                opened = opened or rows[index][0]
                texts.append(line)
        if texts and not closed:  # an announced ruling whose copy lost its source line
            result.entries.append(entry_of(title, texts, opened, [title]))
        elif texts:
            rest = [(n, x.strip()) for n, x in rows[at + 1 : end] if x.strip()]
            result.ignored(rest[-len(texts) :], "text after a ruling's source")
    if by_text is not None:  # each entry's, for a correction to name it by its line
        result.warnings += [_named_by_text_doubt(e.line, title, by_text) for e in result.entries]
    elif not is_known(title):
        result.warnings += [_unknown_card_doubt(e.line, title) for e in result.entries]
    return result


def _read_quote(rows: list[tuple[int, str]], at: int, end: int, title: str, result: Parsed) -> None:
    """A quote of a rules document on the card (rows ``at`` to ``end``) as the card's entry,
    its source named in a note; where it runs over several paragraphs, a doubt: nothing
    marks where a quote ends and the review's own words begin."""
    source = _QUOTE.match(rows[at][1].strip()).group(1)
    body = [(n, line.strip()) for n, line in rows[at + 1 : end] if line.strip()]
    if not body:
        return
    entry = entry_of(title, [line for _, line in body], body[0][0], [title])
    result.entries.append(entry)
    result.warnings.append(
        ParseWarning(entry.line, f"entry {title!r} quotes {source!r}, as the page says")
    )
    if len(body) > 1:
        result.warnings.append(
            ParseWarning(
                entry.line,
                f"the quote of {source!r} runs over {len(body)} paragraphs, and nothing marks "
                "where it ends: check that the last ones are not a review's own words, then "
                f"confirm it ({{line: {entry.line}, confirm: true}})",
                doubt=True,
            )
        )


def parse(text: str) -> Parsed:
    result = Parsed()
    rows = unwrapped(lines_of(text))  # a card's game text wraps on a printed page
    found = _card_line(rows)
    starts, notes_alone = _announced(rows), _notes_alone(rows)
    if found is None and starts and (first := _first_title(rows)):
        # a card the project knows, named on the page, is the page's card; a first line's
        # form only guesses at one ("Playable at: Any Nor - Ops Modul."), and the card whose
        # game text the page prints, and whose name it prints too, comes before that guess
        by_text = None if is_card(first[1]) else card_by_text(rows, text)
        if by_text is None or not page_names(text, by_text[1]):
            return _parse_announced(rows, starts, first[1], result)
        return _parse_announced(rows, starts, by_text[1], result, by_text[0])
    if found is None and not starts and not notes_alone:
        if unlabelled := _unlabelled(rows, text):
            return _parse_unlabelled(rows, unlabelled, result)
    # a card named by its text is used only on a page that announces rulings or prints
    # its rule notes alone; elsewhere comparing every line with every card's text is waste
    usable = found is None and (starts or notes_alone)
    by_text = card_by_text(rows, text) if usable else None
    if by_text is not None and starts:
        return _parse_announced(rows, starts, by_text[1], result, by_text[0])
    if by_text is not None and notes_alone:
        # the "Rule notes" layout copied from below the card's title line: the page's
        # first lines are the card's (its type, lore, game text)
        found = next(i for i, (_, line) in enumerate(rows) if line.strip(" |")), by_text[1]
    if found is None:
        result.holds_none = "a card's rule notes on a copy that does not name the card"
        if starts:  # read once the card is named on the page's first line
            result.holds_none += " (put the card's title on a line of its own at the top)"
        return result
    index, title = found
    number = rows[index][0]
    notes = next((i for i, (_, line) in enumerate(rows) if _NOTES in line and i > index), None)
    if notes is None:
        result.holds_none = f"the page of the card {title!r}, with no rule notes on it"
        return result
    pieces = [rows[notes][1].split(_NOTES, 1)[1]] + [line for _, line in rows[notes + 1 :]]
    texts: list[str] = []
    after: list[str] = []  # what follows the rulings' last source line
    for piece in pieces:
        piece = piece.strip(" |\t")
        if not piece or chrome.kind_of(piece) is not None:
            continue
        labels = piece.endswith(":") and len(piece.split()) <= 4 or _named(piece)
        if after or texts and names_a_source(texts[-1]) and not labels:
            # after "Taken from: Rulebook Glossary (08/2002)" only another source's
            # rulings go on; the rest is the page's ("map")
            after.append(piece)
            continue
        if not texts and labels:
            # the source's own line ("Official Rulings:", "Major Rakal's Dilemma Facts")
            continue
        texts.append(_without_source(piece) if not texts else piece)
    card = [(n, line.strip(" |")) for n, line in rows[index:notes] if line.strip(" |")]
    result.ignored(
        card,
        "the card's lore and game text" if by_text else "the card's title line, lore and game text",
        ": the card's, not a ruling",
    )
    if by_text is None and not is_known(title):
        result.warnings.append(_unknown_card_doubt(number, title))
    if not texts:
        return result
    entry = entry_of(title, texts, number, [title])
    entry.text = "\n\n".join(texts)
    result.entries.append(entry)
    set_aside = set(after)  # looked up once a line: a long page stays linear
    rest = [row for row in rows[notes + 1 :] if row[1].strip(" |\t") in set_aside]
    result.ignored([(n, line.strip(" |\t")) for n, line in rest], "text after the card's ruling")
    if by_text is not None:
        result.warnings.append(_named_by_text_doubt(number, title, by_text[0]))
    return result


def _parse_unlabelled(
    rows: list[tuple[int, str]], found: tuple[int, str, int, bool], result: Parsed
) -> Parsed:
    """The card's ruling that follows its game text with no label, up to its source line
    or the page's review, as the card's entry, with a doubt: nothing on the page says it
    is a ruling but its form."""
    at, title, text_line, by_text, sourced = found
    result.ignored(
        [(n, line.strip()) for n, line in rows[:at] if line.strip()],
        "the card's title, lore and data",
        ": the card's, not a ruling",
    )
    body: list[tuple[int, str]] = []
    end = len(rows)
    for index in range(at, len(rows)):
        line = rows[index][1].strip()
        if names_a_source(line) or _AFTER_RULING.match(line) or _QUOTE.match(line):
            end = index + 1 if names_a_source(line) else index
            break
        if line:
            body.append((rows[index][0], line))
    rest = [(n, line.strip()) for n, line in rows[end:] if line.strip()]
    if not body:
        return result
    entry = entry_of(title, [line for _, line in body], body[0][0], [title])
    result.entries.append(entry)
    result.ignored(rest, "text after the card's ruling")
    result.warnings.append(
        ParseWarning(
            entry.line,
            f"entry {title!r}: no label on the page marks this text as the card's ruling, "
            f"only its place under the card's game text (line {text_line}) and "
            + ("the source line that closes it" if sourced else "its first words")
            + f" ({drop_or_confirm(entry.line)})",
            doubt=True,
        )
    )
    if by_text:
        result.warnings.append(_named_by_text_doubt(entry.line, title, text_line))
    return result


def _confirm_or_retitle(line: int) -> str:
    """The two corrections that settle a doubt about which card an entry is titled by."""
    return f"confirm it ({{line: {line}, confirm: true}}); else give the title ({{line: {line}, title: …}})"


def _unknown_card_doubt(line: int, title: str) -> ParseWarning:
    """The doubt on an entry titled by a card the project does not know, with the two
    corrections that settle it."""
    return ParseWarning(
        line,
        f"the project knows no card {title!r}: if that is the card's title, "
        + _confirm_or_retitle(line),
        doubt=True,
    )


def _named_by_text_doubt(line: int, title: str, text_line: int) -> ParseWarning:
    """The doubt on an entry of a card page that does not print the card's name, named by
    the card whose game text line ``text_line`` prints."""
    return ParseWarning(
        line,
        f"the page does not print the card's name; line {text_line} reads as the game text "
        f"of {title!r}: if that is the card, " + _confirm_or_retitle(line),
        doubt=True,
    )


def _named(line: str) -> bool:
    """Whether ``line`` is a source's name on a line of its own: a few capitalised words
    that end no sentence ("Major Rakal's Dilemma Facts"), no ruling's text."""
    words = line.split()
    return (
        0 < len(words) <= 6
        and not line.endswith((".", "!", "?", ")"))
        and all(w[:1].isupper() or w[:1].isdigit() for w in words)
    )


def _without_source(text: str) -> str:
    """The rulings' text without the name of their source printed before it ("Major
    Rakal's Dilemma Facts If you meet…"): the capitalised words before the first word of
    a sentence (a capitalised word followed by one in lower case or by an acronym)."""
    # words by any space, a tab too
    words = list(_WORD.finditer(text))
    for position in range(len(words) - 1):
        word, after = words[position].group(), words[position + 1].group()
        if not word[:1].isupper() and not word[:1].isdigit():
            return text  # the text starts at once: no source named
        # a sentence's first word: capitalised, then a word in lower case or one opening
        # with an acronym ("If AT meets conditions…", "If AT/crew meets…")
        if word[:1].isupper() and (after[:1].islower() or after[:2].isupper()):
            return text[words[position].start() :] if position else text
    return text


_WORD = re.compile(r"\S+")
