"""The forms of an entry's head on one line, as rules documents print them.

``title – text`` (an en dash, an em dash, a hyphen or plain text's ``--`` between spaces),
``title: text``, a title in capitals run into its text, ``TITLE - text in lower case``; what
a title may look like by its form alone (no sentence in it, no connective first), and what
an entry's text looks like (a sentence). Everything here reads one line and knows nothing of
the page around it: :mod:`bot.ingest.reader.heads` weighs the candidates a page holds.
"""

from __future__ import annotations

import re

from bot.ingest.parsers.text import amendment_of, ends_sentence, is_list_item
from bot.ingest.reader.known import (
    QUESTION_WORDS,
    SMALL_WORDS,
    is_card,
    is_card_type,
    is_known,
    most_words_from,
)

DASH, COLON, LINE, DATED, RUN_IN = "dash", "colon", "line", "dated", "run-in"
GLUED = "title run into its text"  # "Tongo To declare a move …": a bold title's face lost
LOWER = "dash, text in lower case"  # "10 AND 01 - sono di genere maschile."
# The marks a title's dash is printed with between spaces: an en or em dash, a hyphen, and
# plain text's double hyphen (FAQ files, mail: "TIMING -- This has been…").
DASH_MARKS = ("–", "—", "-", "--")
SPACED_DASH = r"(?:[–—-]|--)"  # one of them, as a pattern
# ... or an em dash with no space around it, as American print sets one ("Tongo—To declare",
# "Borg Use Only icon [BO]—A card", "“Stopping”—A dilemma"), as a pattern
BARE_EM_DASH = r"(?<=[\w)\]\"”’'])—(?=[A-Z\"“(\[])"
_SEPARATOR = re.compile(rf"\s{SPACED_DASH}\s|{BARE_EM_DASH}")
# Words that open a labelled paragraph of an entry, never an entry of their own.
_LABELS = frozenset(
    "example examples note notes q a question answer answers for example erratum errata "
    "clarification clarifications date updated posted by category categories see also "
    "applicable cards applicable card source taken from rulings ruling effective".split(" ")
) | {"for example", "applicable cards", "applicable card", "taken from", "see also"}


def is_label(word: str) -> bool:
    """Whether ``word`` opens a labelled paragraph ("Q:", "Example:", "Note:"), no entry."""
    return word.strip().casefold() in _LABELS


# Verbs that lead into a quotation of a card's text, never the last word of a title.
_QUOTING = frozenset("reads read says say states state".split())
# Words that open no title (nor a heading: "or" on a line between two rules).
CONNECTIVES = frozenset(
    "and or but if when then so with for to of in on at by as is are was were that this "
    "these those it its you your he she they we".split()
)


# An e-mail or web address; a deck list's count ("Data x1", "2x Red Alert", "Kurn (x2)",
# "1<tab>Armus", a card program's export)
_NO_TITLE = re.compile(r"\S@\S|://|\bwww\.|\s\(?[x×]\d{1,2}\)?$|^\d{1,2}\s?[x×]\s|^\d{1,2}\t")


def names_no_entry(title: str) -> bool:
    """Whether ``title`` holds an e-mail or a web address ("MajorRakal@decipher.com --
    rules questions": a signature's or a link's line), a deck list's count of a card
    ("Data x1 – android officer"), a quotation's tail (``notes" - Your cards…``: a page
    cut inside a sentence that quoted) or a ruling's source (:func:`names_a_source`): no
    entry is titled so."""
    return bool(_NO_TITLE.search(title)) or _quotes_unbalanced(title) or names_a_source(title)


# A ruling's source after its text: "Taken from: Rulebook Glossary (08/2002)", openCards'
# "Taken form Glossary - Version 1.9.2." (the site's own typo)
_SOURCE = re.compile(r"^Taken f(?:ro|or)m\b", re.I)


def names_a_source(line: str) -> bool:
    """Whether ``line`` names the document a ruling was taken from: a citation, no title."""
    return bool(_SOURCE.match(line.strip()))


_LIST_COMMA = re.compile(r", (?:and |or )?| and | or ")  # on single spaces: linear


def cites_a_title(line: str) -> bool:
    """Whether ``line`` is a title the project knows and a full stop ("actions – step 1:
    initiation."), or a list of such titles ("battle – affiliation restrictions, infiltration
    icon, playing an affiliation (non-Borg)."): the tail of a cross reference cut after its
    "See", naming entries, opening none."""
    line = line.strip()
    if not line.endswith("."):
        return False
    if is_known(line[:-1]):
        return True
    items = _LIST_COMMA.split(" ".join(line[:-1].split())) if "," in line else []
    return len(items) >= 2 and all(item and is_known(item) for item in items)


def _quotes_unbalanced(title: str) -> bool:
    """Whether ``title``'s double quotes do not pair up: an odd number of straight ones, or
    a closing curly one before its opening one ("here" and “Defective” pair up)."""
    if title.count('"') % 2:
        return True
    depth = 0
    for char in title:
        if char == "“":
            depth += 1
        elif char == "”":
            if not depth:
                return True
            depth -= 1
    return depth > 0


# The fields a card's page prints as "Label: value" lines ("Type: Dilemma", "Lore: …"): the
# card's data, never an entry, even where a field is also a card's name ("Lore").
CARD_FIELDS = frozenset(
    "name type sub-type subtype set expansion rarity lore gameplay game text affiliation "
    "icons skills integrity cunning strength range weapons shields span points quadrant "
    "requirements classification species card number collector's info artist".split()
) | {"game text", "card number", "collector's info", "sub type"}
_FIELD = re.compile(r"^([A-Za-z][A-Za-z' -]{1,20}):\s")
MIN_FIELDS = 3  # "Label: value" lines in a row that make a card's data block


def card_field(line: str) -> bool:
    """Whether ``line`` prints one field of a card's data ("Type: Dilemma")."""
    match = _FIELD.match(line.strip())
    return bool(match) and match.group(1).strip().casefold() in CARD_FIELDS


def title_ok(title: str, alone: bool = False) -> bool:
    """Whether ``title`` can be an entry title by its form alone (``alone``: printed on a
    line of its own, where "Q" is the card, not the "Q:" of a question)."""
    if title.endswith((", etc.", " etc.")):  # "nearest planet, etc.": an abbreviation's stop
        return title_ok(title[: title.rfind("etc.")].rstrip(" ,"), alone)
    words = title.split()
    if title.startswith(("See ", "see ", "(", "-", "–")) or is_list_item(title) or "|" in title:
        return False
    last = len(words) - 1
    if any(
        w.rstrip(":") in _QUOTING and (w.endswith(":") or i == last) for i, w in enumerate(words)
    ):
        return False  # "Julian Bashir (Rebel Captain) reads: …" leads into a quotation
    if amendment_of(title) is not None:
        return False  # "Add the following": an amendment's instruction, the text's start
    if names_no_entry(title):
        return False
    if title.casefold() in _LABELS:
        return alone and is_known(title)
    if title.endswith(":") or ends_sentence(title) and not title.endswith(("!", "?", ".", ")")):
        return False  # "…during an opponent's action:" leads into a list
    if known_title(title):
        # A card's printed title may hold what a sentence holds ("James T. Kirk, Original
        # Thinker": an initial; "Weyoun, "Defective" Clone": quotes); knowing it settles it.
        return True
    if not 1 <= len(words) <= 8 or len(title) > 70:
        return False
    if len(words) == 2 and words[0].casefold() == words[1].casefold():
        return False  # "Incident Incident": a card's type beside its icon's alt text
    if words[0].casefold() in CONNECTIVES:
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
        return is_known(title) or _new_version(title)
    return title[:1].isalnum() or title[:1] in "'‘“[" and is_known(title)


def _new_version(title: str) -> bool:
    """Whether ``title`` names a new card of a persona the project knows ("Kira Nerys,
    Iliana Ghemor"): the known name, a comma, and a subtitle in title case. A new document
    rules on new cards; their names are the ones the card lists do not hold yet."""
    name, comma, subtitle = title.partition(", ")
    words = subtitle.split()
    return (
        bool(comma)
        and 1 <= len(words) <= 5
        and is_known(name)
        and not re.search(r"[,;:.!?]", subtitle)
        and all(w[:1].isupper() or w[:1].isdigit() or w in SMALL_WORDS for w in words)
        and words[0][:1].isupper()
    )


def known_title(title: str) -> bool:
    """Whether ``title`` is a known title, or two joined by "and" (one ruling on two cards:
    ``Weyoun, "Defective" Clone and Jean-Luc Picard, Worf's cha'DIch``)."""
    if len(title) > 120:
        return False
    if is_known(title):
        return True
    first, joined, second = title.partition(" and ")
    return bool(joined) and is_known(first) and is_known(second)


def label_under(title: str, below: tuple[str, str, str]) -> bool:
    """Whether the ``title: text`` line ``below`` a known title line is that entry's label
    ("Interim erratum: …" under "James T. Kirk, Original Thinker"), not an entry's head."""
    return below[2] == COLON and known_title(title) and not known_title(below[0])


def rest_ok(rest: str) -> bool:
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


def inline(line: str) -> tuple[str, str, str] | None:
    """(title, rest, style) of a ``title – text`` or ``title: text`` line, else None. Of
    several dashes, the longest known title wins, else the first that reads as a title."""
    if cites_a_title(line):
        return None  # "actions – step 1: initiation.": a cross reference's tail, no head
    if line.startswith("#") and line.lstrip("#").startswith(" "):
        return None  # a Markdown heading is a title line whole, its dash the title's own
    first = None
    for match in _SEPARATOR.finditer(line[:120]):
        title, rest = line[: match.start()].strip(), line[match.end() :].strip()
        if not rest_ok(rest) or _inside_known_title(line, title) or is_list_item(title):
            continue  # "• Guardian – …": a list's item, even where a card bears its word
        if is_known(title):
            first = (title, rest, DASH)  # a longer known title later still wins
        elif first is None and title_ok(title):
            first = (title, rest, DASH)
    if first:
        return subtitle_joined(line, first)
    if lower := _lower_dash(line):
        return lower
    if (tab := line.find("\t", 0, 80)) > 0 and "\t" not in (rest := line[tab + 1 :].strip()):
        # a table's row copied with its tab ("mission<tab>There are three kinds of …"):
        # as weak a convention as a colon's, so confirmed as a colon's heads are
        title = line[:tab].strip()
        if title_ok(title) and rest_ok(rest):
            return title, rest, COLON
    colon = line.find(": ", 0, 80)
    if colon > 0:
        # A known title that holds a colon ("HQ: Defensive Measures: text") runs past it.
        if (later := line.find(": ", colon + 2, 100)) > 0 and is_known(line[:later].strip()):
            colon = later
        title, rest = line[:colon].strip(), line[colon + 2 :].strip()
        if title_ok(title) and (rest_ok(rest) or _known_over_lower_case(title, rest)):
            return title, rest, COLON
    return _glued(line)


def _known_over_lower_case(title: str, rest: str) -> bool:
    """Whether ``title: rest`` is a term the project knows over a text that opens in lower
    case, as the 1E Glossary prints some ("couple: a personnel and their romantic
    partner."): a sentence of three words or more (five where a wrap may cut it), not a
    list of items after a label."""
    words = rest.split()
    return (
        len(words) >= 3
        and rest[:1].islower()
        and (ends_sentence(rest) or len(words) >= 5)
        and is_known(title)
    )


def subtitle_joined(line: str, head: tuple[str, str, str]) -> tuple[str, str, str]:
    """``head`` (title, rest, style) of ``line`` with its title run on to a later dash when
    what lies between is a title's part in capitals ("Actions – Step 2: Responses – After
    an action…"), not a sentence: the title as the line prints it."""
    title, rest, style = head
    if (after := _SEPARATOR.search(rest[:80])) is None:
        return head
    segment, text = rest[: after.start()].strip(), rest[after.end() :].strip()
    words = segment.split()
    if not 1 <= len(words) <= 6 or not rest_ok(text) or ends_sentence(segment):
        return head
    if is_known(title) and not any(c.isdigit() or c == ":" for c in segment):
        # a known title runs on into a numbered part ("Step 2: Responses"), or into a part
        # of its own in title case where the title is a term of the Glossary's, not a card
        # ("Actions – Group – An action …"; not "Dead End – Dilemma – …")
        if is_card(title) or is_card_type(segment) or not _title_cased(words):
            return head
    if _title_cased(words):
        return line[: line.find(segment) + len(segment)].strip(), text, style
    return head


def _title_cased(words: list[str]) -> bool:
    """Whether ``words`` are a title's, each capitalised but the small ones after the first
    ("Sequence of Steps")."""
    return all(
        w[:1].isupper() or w[:1].isdigit() or (i and w in SMALL_WORDS) for i, w in enumerate(words)
    )


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
    words = rest.split()
    if any(word.endswith(":") for word in words[:3]) or "\t" in rest[:40]:
        # "mission attempt - example: Select …": the title goes on to the colon, or to the
        # tab that ends a table row's first cell ("mission attempt - example<tab>Select …")
        return None
    if _inside_known_title(line, title):
        return None  # "mission attempt - example …": a known title's own dash
    if len(words) >= 3 and rest[:1].islower() and title_ok(title):
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
            if title.upper() == title and is_known(title) and rest_ok(line[index:]):
                return title, line[index:].strip(), DASH
            return None
        if char.islower():
            return None
    return None


def prose(line: str) -> bool:
    # a title line with its annotation ("ability (updated by Current Rulings)") is no prose
    return len(without_alt_text(without_annotation(line)).split()) >= 5


def without_alt_text(line: str) -> str:
    """An icon's title line without its image's alt text run onto it ("Gamma Quadrant icon
    Gamma Quadrant", a rendered page's "<img alt='Gamma Quadrant'>"): the words after
    "icon" that repeat the title's first words."""
    words = line.split()
    for at, word in enumerate(words[:-1]):
        if word.casefold() == "icon" and at >= 1:
            tail = words[at + 1 :]
            if len(tail) <= at and [w.casefold() for w in tail] == [
                w.casefold() for w in words[: len(tail)]
            ]:
                return " ".join(words[: at + 1])
    return line


_TRAILING_DASH = (" –", " —", " -", " --")


def without_trailing_dash(line: str) -> str:
    """A title line without the dash a wrap left at its end ("Bajoran Wormhole –" over
    "Whenever you …": a ``Title – text`` head broken after its dash)."""
    for dash in _TRAILING_DASH:
        if line.endswith(dash):
            return line[: -len(dash)].rstrip()
    return line


def without_annotation(line: str) -> str:
    """A title line without the annotation printed after it ("ability (updated by Current
    Rulings)"), unless the whole line is a known title (a card's name may hold parentheses)."""
    if not line.endswith(")") or "(" not in line or known_title(line):
        return line
    title = line[: line.rfind("(")].strip()
    # a remark is a phrase in lower case ("updated by Current Rulings"); a word or two, or a
    # name, in parentheses is the title's own ("(non-Borg)", "(Six of Seventeen)")
    remark = line[line.rfind("(") + 1 : -1].split()
    is_remark = len(remark) >= 3 and remark[0][:1].islower()
    return title if title and len(line) - len(title) <= 60 and is_remark else line
