"""What a query's wording says beyond its names: that it is a question, that it joins a name
to something said before it ("How does this work with Data's Body?"), or that it asks of a
kind of card named after a card ("Captain Proton cards"). Read by the card choice
(bot.search.card_answer) and the verdict (bot.search.verdict)."""

from __future__ import annotations

from bot.normalize import normalize

# A query opening with one of these is a question, even without its "?".
QUESTION_OPENINGS = frozenset(
    "can could may might must shall should would will do does did is are was were how what "
    "who whom whose which when where why if".split()
)

# Words that stand for something said before the question, and the words that join such a
# word to the answer's name ("How does this work with Data's Body?").
_UNNAMED = frozenset("this that it these those they them".split())
_JOINING = frozenset("with on against and to onto vs versus".split())


def asks_with_unnamed(query: str, name: str) -> bool:
    """Whether a question joins the answer's name (normalised) to something it names only by
    a pronoun: "How does this work with Data's Body?" follows on from a thread ("this" is
    the rule discussed before), and "can I play this on Data's Body" asks of an unnamed card;
    the named card is the other party, which its own text does not settle."""
    opening = normalize(query, fold_plurals=False).split()[:1]
    if not opening or ("?" not in query and opening[0] not in QUESTION_OPENINGS):
        return False
    typed, named = normalize(query).split(), normalize(name).split()
    for start in range(1, len(typed) - len(named) + 1):
        if typed[start : start + len(named)] != named:
            continue
        link = start - 1
        while link > 0 and typed[link] in ("the", "a", "an", "my", "your"):
            link -= 1
        if typed[link] not in _JOINING:
            continue
        if any(word in _UNNAMED for word in typed[max(0, link - 4) : link]):
            return True
    return False


def asks_of_cards(query: str, name: str) -> bool:
    """Whether the query asks of "cards" right after a word of a card's name (normalised),
    a kind of card named after it ("Captain Proton cards": the holonovel's cards;
    "Alternate Universe cards": those with its icon), not the one card ("cards ... like
    Mot the Barber" asks of the card)."""
    typed = normalize(query, fold_plurals=False).split()
    words = normalize(query).split()
    named = set(name.split())
    if len(typed) != len(words) or "card" in named:
        return False
    return any(word == "cards" and words[at - 1] in named for at, word in enumerate(typed) if at)
