"""How alike a query's words are to a name's words: the same word, a prefix of it, or a
typo of it (:func:`likeness`); which words say what a query is about (:func:`content_words`,
:data:`FILLER` the rest); how much of a query a matched name explains (:func:`name_fit`);
whether a query is a whole name misspelt (:func:`misspelt_name`). Every name match, the
ranking's signals and the verdict's features read these."""

from __future__ import annotations

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from bot.normalize import normalize, unfolded
from bot.search.hits import FOUND_BY_TEXT, Hit

# Words that carry no topic in a question ("how do I win the game").
_FILLER_WORDS = """a an the i me my we you your it its is are was be been am do does did doing
    how what when where which who whom why can could should would will shall may might must
    to of in on for with about at by from into as if or and but so than then there this that
    these those happen happens happened work works mean means
    explain explanation explanations explained explaining expanded
    tell please question q vs versus get gets say says said""".split()
# Words that say where an answer is from, not what it is about ("CRD matching commander").
SOURCE_WORDS = "rule rules ruling rulings crd glossary rulebook faq".split()
# As a query's words are compared, plurals folded: "does" is "doe" then, and was taken for a
# word the question is about ("what does Energy Vortex do?").
FILLER = frozenset(_FILLER_WORDS + SOURCE_WORDS) | frozenset(
    normalize(w) for w in _FILLER_WORDS + SOURCE_WORDS
)


def name_fit(matched: str, via: str, content: list[str]) -> tuple[float, float]:
    """How much of the query a matched name explains, and how much of the name the query
    holds (each a share, 0..1)."""
    words = set(matched.split()) if via not in FOUND_BY_TEXT else set()
    if not words or not content:
        return 0.0, 0.0
    cover = sum(max(likeness(w, m) for m in words) for w in content) / len(content)
    named = content_words(list(words))
    whole = sum(max(likeness(w, m) for w in content) for m in named) / len(named)
    return cover, whole


MISSPELT_WHOLE = 0.75  # a name matched word for word, typos allowed, this closely


def misspelt_whole(cover: float, whole: float) -> float:
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


def nearly_whole(hit: Hit, key: str, cover: float, whole: float) -> float:
    """:func:`misspelt_whole` for a hit's name; a card name its text only mentions must
    also be the whole query misspelt (:func:`misspelt_name`), as for the card itself."""
    alike = misspelt_name(key, hit.matched)
    if hit.mention and not alike:
        return 0.0
    # Compared whole too: "this misson" is the title "this mission" (0.96 alike), though
    # word for word, stop words aside, it is as near "missions".
    return max(misspelt_whole(cover, whole), alike)


def misspelt_in_part(name: str, content: list[str], key: str) -> bool:
    """Whether a name is matched through a word typed only alike ("mordoik" for Mordock),
    without the query being the whole name misspelt (:func:`misspelt_name`)."""
    alike_only = any(
        0.0 < max((likeness(w, named) for w in content), default=0.0) < 1.0
        for named in content_words(name.split())
    )
    return alike_only and not misspelt_name(key, name)


def typo_likeness(typed: str, named: str) -> float:
    """How alike two words are as spelt (0..1); a typed word ending in "s" is also compared
    with the plurals that fold to the name's word (names are compared folded: "specy")."""
    ratio = fuzz.ratio(typed, named)
    if ratio < 75 and typed.endswith("s"):
        ratio = max(fuzz.ratio(typed, form) for form in unfolded(named))
    return ratio / 100


SLIP = 0.75  # two words spelt at least this alike: one is the other mistyped


def likeness(typed: str, named: str) -> float:
    """How much a query word stands for a name's word: 1 the word itself; a misspelling by
    its similarity (SLIP..1); a prefix by the share of the word typed ("play" for
    "playing" is a different word more often than a short form)."""
    if typed == named:
        return 1.0
    similarity = typo_likeness(typed, named)
    prefix = len(typed) / len(named) if named.startswith(typed) else 0.0
    best = max(similarity if similarity >= SLIP else 0.0, prefix)
    return best


def says_alike(text: list[str], run: list[str]) -> bool:
    """Whether a text's words hold these words side by side, each as typed or mistyped
    (normalised words; a typo on either side: the documents have their own, "The
    Intentant" for The Intendant)."""

    def alike(word: str, other: str) -> bool:
        return likeness(word, other) >= SLIP or likeness(other, word) >= SLIP

    width = len(run)
    return bool(run) and any(
        all(alike(word, other) for word, other in zip(run, text[i : i + width], strict=True))
        for i in range(len(text) - width + 1)
    )


def content_words(words: list[str]) -> list[str]:
    """The words that say what a query is about (FILLER dropped; all of them if none is
    left)."""
    kept = [w for w in words if w not in FILLER]
    return kept or words
