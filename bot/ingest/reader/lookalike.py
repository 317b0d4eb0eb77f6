"""Pages in a rulings page's form that hold no rulings, told by what their entries say.

- **Whose voice**: rules documents never say "I". A ruling, a Glossary term or an FAQ's
  answer speaks of "you", "the player" and the cards; a deck report, a card review or a
  top-ten list in the same ``Title – text`` form says "I love his skills", "my opponents".
  Questions are left aside: an FAQ's question asks "can I…?" as a player does.
- **A card list**: each entry's text opens with the card's type ("Data – Personnel,
  Federation. Android officer…"): card data, not a ruling on the card.
- **A program's documentation**: ten names or more set as code (`` `drawCard` ``), as a
  README or a developer's notes on the rules print them, and no rules document does.
- **Another game's or subject's glossary**: its entries hardly use the game's own terms
  (dilemma, mission, personnel, ship, affiliation…) and hardly any title is the game's.
  A page of one to three entries is judged so where no title is the game's and its text,
  150 words or more, uses none of those terms at all: another game's rulings (which speak
  of cards and players as this game's do), an article in another language, which no form
  can tell from a ruling.

Each check is one pass over the entries' text (or each entry's first characters): linear.
"""

from __future__ import annotations

import re

from bot.ingest.reader.known import (
    game_term_share,
    is_card,
    is_card_type,
    is_known,
    most_words_from,
)
from bot.ingest.reader.model import ReadEntry

# "I" before a word in lower case (not the Roman numeral of "Part I."), its contractions,
# and "my", "me", "mine", "myself"
_FIRST_PERSON = re.compile(r"\b(?:I(?= [a-z])|I'm|I've|I'd|I'll|[Mm]y|me|mine|myself)\b")
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
SHARE = 2 / 3  # of a page's entries that must show a mark (speaking as "I", a card type first)
MAX_TEXT = 4000  # characters of each entry looked at: the first sentences tell


def speaks_as_i(text: str) -> str | None:
    """The first sentence of ``text`` that is no question and says "I", else None."""
    for sentence in _SENTENCE.findall(text[:MAX_TEXT]):
        sentence = " ".join(sentence.split())
        if not sentence.endswith("?") and _FIRST_PERSON.search(sentence):
            return sentence
    return None


def commentary(entries: list[ReadEntry]) -> str | None:
    """A sentence that shows the entries are a person's commentary, not rulings: where two
    thirds of several entries (or two sentences of a lone one) speak as "I"; else None."""
    if len(entries) == 1:
        spoken = [
            s
            for s in _SENTENCE.findall(entries[0].text[:MAX_TEXT])
            if not s.strip().endswith("?") and _FIRST_PERSON.search(s)
        ]
        return " ".join(spoken[0].split()) if len(spoken) >= 2 else None
    spoken = [s for s in (speaks_as_i(e.text) for e in entries) if s]
    return spoken[0] if entries and len(spoken) >= SHARE * len(entries) else None


# Inline code, as a program's documentation prints its names ("`drawCard`", "`HQ_NAMES`"):
# no rules document, printed or pasted, sets its words so. A bounded class: linear.
_CODE_SPAN = re.compile(r"`[^`\n]{1,80}`")
CODE_SPANS = 10  # this many code names make a page a program's documentation


def code_names(text: str) -> list[str]:
    """The code names of ``text`` where it prints :data:`CODE_SPANS` or more (a program's
    README, a developer's notes or table of rulebook terms), else none."""
    spans = _CODE_SPAN.findall(text)
    return spans if len(spans) >= CODE_SPANS else []


def answer_marks(entries: list[ReadEntry]) -> bool:
    """Whether three entries or more are titled "Q" or "A": an FAQ's "Q - …" / "A - …"
    marks read as "Title - text" heads. A mark names no card or term (the card Q is one
    entry of a page, not one per question), so the shape misread the page's form."""
    return sum(1 for entry in entries if entry.title.strip(" .:").casefold() in ("q", "a")) >= 3


_TYPE_FIRST = re.compile(r"^\s*([A-Za-z][A-Za-z -]{1,20}?)\s*[,.:;–—-]")


def card_list(entries: list[ReadEntry]) -> str | None:
    """The first entry's text where two thirds of three or more entries open with a card
    type ("Personnel, Federation."): a card list's data; else None."""
    if len(entries) < 3:
        return None
    typed = [
        e.text
        for e in entries
        if (match := _TYPE_FIRST.match(e.text[:40])) and is_card_type(match.group(1))
    ]
    return typed[0] if len(typed) >= SHARE * len(entries) else None


# A sentence's end: a full stop, "!" or "?" after a word in lower case, a number or a
# closing quote or bracket, not inside a word or number ("e.g", "1.5"), nor an initial's
# ("U.S.S. Enterprise-J", a card's name in a deck list).
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\]\"”’'])[.!?](?!\w)")
MIN_LISTED = 3  # entries a page must read as for its entries' lack of sentences to tell


def holds_a_sentence(text: str) -> bool:
    """Whether ``text`` ends a sentence anywhere, as every ruling's text does."""
    return _SENTENCE_END.search(text[:MAX_TEXT]) is not None


def unsentenced(entries: list[ReadEntry]) -> str | None:
    """The text of an entry that shows the entries are a list's items (a deck list's card
    names, an index's lines), not rulings: where two thirds of three or more entries with
    text, the last aside, end no sentence at all, as every ruling does; else None."""
    # an entry with no text at all is doubted as such, whatever the page; the last may be
    # cut off where the copy ends
    texts = [e.text for e in entries[:-1] if e.text.strip()]
    bare = [text for text in texts if not holds_a_sentence(text)]
    if len(texts) >= MIN_LISTED and len(bare) >= SHARE * len(texts):
        return bare[0]
    return None


MIN_ENTRIES = 4  # a page this many entries long may be judged by its entries' words
MIN_WORDS = 150
MIN_TABLE_WORDS = 40  # a short table judged by having none of the game's terms at all
MIN_TABLE_ENTRIES = 3  # … of this many rows
OFF_GAME_TERMS = 0.02  # rules pages seen: 2.8 % of their entries' words or more; others 1.3 %


def opens_with_a_card(title: str) -> bool:
    """Whether ``title`` opens with the name, of two words or more, of a card the project
    knows: an FAQ's topic on that card ("DEVIDIAN DOOR and ITS TIME LIMIT")."""
    words = title.split()
    longest = min(len(words), most_words_from(words[0])) if words else 0
    return any(is_card(" ".join(words[:n])) for n in range(longest, 1, -1))


def off_game(entries: list[ReadEntry]) -> tuple[int, int] | None:
    """(the game's terms, words) of entries that read as another game's or subject's
    glossary: several entries, few of the game's terms, under a third of the titles known;
    or one to three entries, none titled as the game names anything, that use none of the
    game's terms. Else None."""
    text = " ".join(e.text for e in entries)
    share, words = game_term_share(text)
    if words < MIN_WORDS:
        # Too few words to weigh a share, but none of the game's terms in a table of three
        # or more rows, none titled as the game names anything, is no page of its rules (a
        # league's prize table: "1st – 60 boosters, 4 tengwar"; another game's "Mulligan –
        # Player can replace some cards").
        none_known = not any(is_known(e.title) for e in entries)
        table = len(entries) >= MIN_TABLE_ENTRIES and words >= MIN_TABLE_WORDS
        return (0, words) if table and share == 0 and none_known else None
    if len(entries) < MIN_ENTRIES:
        # Real rules entries this long use the game's terms (2.8 % or more on real pages);
        # a real entry without one (2E's "selected", "may not") is a few dozen words. Of the
        # bundled rulings 50 words long or more, one names none of them (58 words); of the
        # real pages read, none of 150 words. Another game's rulings in its own vocabulary
        # speak of cards and players as much as this game's do, so where no title is the
        # game's, that silence alone tells, however sure the heads.
        none_known = not any(is_known(e.title) or opens_with_a_card(e.title) for e in entries)
        return (0, words) if share == 0 and none_known else None
    if share >= OFF_GAME_TERMS:
        return None
    # A third of the titles known does not make a page the game's when its entries use
    # none of its terms at all: "Ability" and "Action" are titles of any game's glossary.
    if share > 0 and 3 * sum(is_known(e.title) for e in entries) >= len(entries):
        return None
    return round(share * words), words
