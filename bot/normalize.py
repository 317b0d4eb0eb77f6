"""The one normalisation of names and queries, shared by the importer and the search.

Everything that compares a title, an alias, a card name or a user's query goes through
:func:`normalize`, so that "Matching Commanders", "matching-commander" and "MATCHING
COMMANDER" all meet on the same key.
"""

from __future__ import annotations

import re
import unicodedata

# Typographic variants players paste from PDFs and phones.
_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u02bc": "'",
        "\u00b4": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "&": " and ",
    }
)
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
_NON_WORD = re.compile(r"[^0-9a-z]+")
_KEEP_S = ("ss", "us", "is")


def _fold_plural(word: str) -> str:
    """Reduce a plural to its singular well enough for matching (both sides fold alike)."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(_KEEP_S):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    return word[:-1]


def normalize(text: str, *, fold_plurals: bool = True) -> str:
    """Return the comparison key of a title, alias or query.

    Case, accents, quotes, apostrophes (``K'Tal`` = ``ktal``), hyphens and dashes, other
    punctuation, a leading "the" and (by default) plurals are folded away; words are
    separated by single spaces. Never raises, whatever the input.
    """
    text = unicodedata.normalize("NFKD", str(text).translate(_TRANSLATE))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _APOSTROPHE.sub("", text.casefold())
    words = _NON_WORD.sub(" ", text).split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    if fold_plurals:
        words = [_fold_plural(w) for w in words]
    return " ".join(words)


def slugify(text: str) -> str:
    """A stable, readable id fragment (``matching-commander``) from any title."""
    return normalize(text, fold_plurals=False).replace(" ", "-") or "untitled"


def initialism(text: str) -> str:
    """``Klingon Tea Ceremony`` -> ``ktc``; empty for one-word titles."""
    words = normalize(text, fold_plurals=False).split()
    return "".join(w[0] for w in words) if len(words) > 1 else ""
