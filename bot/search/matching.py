"""How a query's words meet a name's words: which words are filler, how alike two words
are (a typo, a prefix), how much of a query a name explains, and whether a query is a name
misspelt. Shared by the ranking (bot.search.index) and the verdict (bot.search.verdict)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from bot.normalize import normalize, unfolded

if TYPE_CHECKING:
    from bot.search.index import Hit

# Words that carry no topic in a question ("how do I win the game").
_FILLER_WORDS = """a an the i me my we you your it its is are was be been am do does did doing
    how what when where which who whom why can could should would will shall may might must
    to of in on for with about at by from into as if or and but so than then there this that
    these those happen happens happened work works mean means
    explain explanation explanations explained explaining expanded
    tell please question q vs versus get gets say says said""".split()
# Words that say where an answer is from, not what it is about ("CRD matching commander").
_SOURCE_WORDS = "rule rules ruling rulings crd glossary rulebook faq".split()
# As a query's words are compared, plurals folded: "does" is "doe" then, and was taken for a
# word the question is about ("what does Energy Vortex do?").
FILLER = frozenset(_FILLER_WORDS + _SOURCE_WORDS) | frozenset(
    normalize(w) for w in _FILLER_WORDS + _SOURCE_WORDS
)
# A query opening with one of these is a question, even without its "?".
_QUESTION_OPENINGS = frozenset(
    "can could may might must shall should would will do does did is are was were how what "
    "who whom whose which when where why if".split()
)

# How a hit is labelled when its text found it, not one of its names.
FOUND_BY_TEXT = ("full text", "passage")


def _name_fit(matched: str, via: str, content: list[str]) -> tuple[float, float]:
    """How much of the query a matched name explains, and how much of the name the query
    holds (each a share, 0..1)."""
    words = set(matched.split()) if via not in FOUND_BY_TEXT else set()
    if not words or not content:
        return 0.0, 0.0
    cover = sum(max(_likeness(w, m) for m in words) for w in content) / len(content)
    named = content_words(list(words))
    whole = sum(max(_likeness(w, m) for w in content) for m in named) / len(named)
    return cover, whole


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
    if not opening or ("?" not in query and opening[0] not in _QUESTION_OPENINGS):
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


MISSPELT_WHOLE = 0.75  # a name matched word for word, typos allowed, this closely


def _misspelt_whole(cover: float, whole: float) -> float:
    """How nearly a name is the whole query when it is not exactly: every word of each
    found in the other, with typos (cover x whole, 0 below MISSPELT_WHOLE)."""
    both = cover * whole
    return round(both, 4) if both >= MISSPELT_WHOLE else 0.0


MISSPELT_NAME = 0.9  # a query compared whole with a card's name this closely names it, typos aside


def misspelt_name(key: str, name: str) -> float:
    """How nearly a normalised query is a name typed with typos, compared as wholes (0..1;
    0 below MISSPELT_NAME): "assimilate planit" is Assimilate Planet, "assimilation
    planet" is not. A card's name is judged so whether it leads to the card or to a
    ruling that mentions it."""
    ratio = fuzz.ratio(key, name) / 100
    if ratio >= MISSPELT_NAME:
        return round(ratio, 4)
    # One slip in a name of six letters or more is a typo too, two letters swapped as much as
    # one dropped ("frcition" is Friction), though the ratio counts a swap as two changes.
    if min(len(key), len(name)) >= 6 and OSA.distance(key, name) == 1:
        return MISSPELT_NAME
    return 0.0


def _nearly_whole(hit: Hit, key: str, cover: float, whole: float) -> float:
    """:func:`_misspelt_whole` for a hit's name; a card name its text only mentions must
    also be the whole query misspelt (:func:`misspelt_name`), as for the card itself."""
    alike = misspelt_name(key, hit.matched)
    if hit.mention and not alike:
        return 0.0
    # Compared whole too: "this misson" is the title "this mission" (0.96 alike), though
    # word for word, stop words aside, it is as near "missions".
    return max(_misspelt_whole(cover, whole), alike)


def _typo_likeness(typed: str, named: str) -> float:
    """How alike two words are as spelt (0..1); a typed word ending in "s" is also compared
    with the plurals that fold to the name's word (names are compared folded: "specy")."""
    ratio = fuzz.ratio(typed, named)
    if ratio < 75 and typed.endswith("s"):
        ratio = max(fuzz.ratio(typed, form) for form in unfolded(named))
    return ratio / 100


SLIP = 0.75  # two words spelt at least this alike: one is the other mistyped


def _likeness(typed: str, named: str) -> float:
    """How much a query word stands for a name's word: 1 the word itself; a misspelling by
    its similarity (SLIP..1); a prefix by the share of the word typed ("play" for
    "playing" is a different word more often than a short form)."""
    if typed == named:
        return 1.0
    similarity = _typo_likeness(typed, named)
    prefix = len(typed) / len(named) if named.startswith(typed) else 0.0
    best = max(similarity if similarity >= SLIP else 0.0, prefix)
    return best


def content_words(words: list[str]) -> list[str]:
    """The words that say what a query is about (FILLER dropped; all of them if none is
    left)."""
    kept = [w for w in words if w not in FILLER]
    return kept or words
