"""The one normalisation of names and queries, shared by the importer and the search.

Everything that compares a title, an alias, a card name or a user's query goes through
:func:`normalize`, so that "Matching Commanders", "matching-commander" and "MATCHING
COMMANDER" all meet on the same key.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata

# Invisible marks a word copied from a PDF or a web page may carry inside it or beside it: a
# soft hyphen where it may break, a zero-width space where a line may break, joiners, a word
# joiner, a byte-order mark. No part of a word and no break between words.
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_UNSEEN = str.maketrans(dict.fromkeys(INVISIBLE, ""))

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
        # Trademark marks ("Alternate Universe\u2122 Doorway" in Decipher's documents): no
        # part of a word, though NFKD spells the first one out as "TM".
        "\u2122": " ",
        "\u2120": " ",
        "\u00ae": " ",
        # no part of a word and no break between words (INVISIBLE, above)
        **dict.fromkeys(INVISIBLE, ""),
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


def unfolded(word: str) -> tuple[str, ...]:
    """The word and the plural spellings that fold to it: a misspelt plural is compared
    with the plural it misspells ("speceis" with "species", not with its fold "specy")."""
    forms = [word, word + "s", word + "es"]
    if word.endswith("y") and len(word) > 2:
        forms.append(word[:-1] + "ies")
    return tuple(f for f in forms if _fold_plural(f) == word)


def normalize(text: str, *, fold_plurals: bool = True) -> str:
    """Return the comparison key of a title, alias or query.

    Case, accents, quotes, apostrophes (``K'Tal`` = ``ktal``), hyphens and dashes, other
    punctuation, a leading "the" and (by default) plurals are folded away; words are
    separated by single spaces. Never raises, whatever the input.
    """
    return _normalized(str(text), fold_plurals)


# One answer normalises the same query and names dozens of times (names, cards, mentions).
# The 917 questions of the eval table need some 26,000 distinct keys; 16,384 churned: at
# 65,536 lookups run 19 % faster (1.45 -> 1.17 s per 917) for 8.6 MB more at the most.
@functools.lru_cache(maxsize=65536)
def _normalized(text: str, fold_plurals: bool) -> str:
    text = text.translate(_TRANSLATE)
    if not text.isascii():  # NFKD leaves ASCII as it is, and it holds no accents to drop
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _APOSTROPHE.sub("", text.casefold())
    words = _NON_WORD.sub(" ", text).split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    if fold_plurals:
        words = [_fold_plural(w) for w in words]
    return " ".join(words)


# Spaces of other widths a copy may put between words: the no-break space (a web page's
# "&nbsp;", a word processor's), the typesetter's fixed-width spaces (U+2000 to U+200A), the
# narrow no-break space and the ideographic space.
_WIDE = "\u00a0\u2000-\u200a\u202f\u205f\u3000"
# A run of spaces that holds one of them, with the plain spaces beside it ("action\u00a0 more"):
# one space. A run of plain spaces alone is left: two of them mark an icon the source lost.
# Linear: a match starts only where no plain space stands before it, and takes its run once.
_WIDE_RUN = re.compile(rf"(?<! ) *+[{_WIDE}][ {_WIDE}]*+")


def plain_spaces(text: str) -> str:
    """``text`` with every run of spaces that holds a no-break or other wide space one plain
    space, and no invisible mark (:data:`INVISIBLE`), as documents are read and imported: a
    reader looks for ": " and " – " with a plain space and titles by their letters (a page
    whose every space was a no-break space lost a sixth of its entries, one with a soft
    hyphen in its long words or a zero-width space before its dashes a seventh), and a
    ruling imported from a web page is stored as the same ruling typed."""
    return _WIDE_RUN.sub(" ", text.translate(_UNSEEN))


def plain_typography(text: str) -> str:
    """``text`` as its words read, whatever set it: curly quotes straight, dashes hyphens,
    no list's markers (``- ``, ``•``) or emphasis's asterisks (Markdown's ``*word*``),
    invisible marks gone, any run of spaces and line breaks one space. Two prints of one
    ruling (Markdown, a word processor's PDF, a web page) say the same where these agree;
    unlike :func:`normalize`, case and other punctuation stay."""
    text = unicodedata.normalize("NFC", text).translate(_TRANSLATE)
    text = _ASTERISKS.sub("", without_list_marks(text)).replace("\u2022", " ")
    return " ".join(text.split())


def without_list_marks(text: str) -> str:
    """``text`` without the markers (``- ``, ``•``, ``*``) that open its lines' list items."""
    return _LIST_MARK.sub("", text)


# A list item's marker at a line's start; a run of asterisks (emphasis, a "new" mark).
# Linear: the marker is one character between runs of spaces, from a line's start only.
_LIST_MARK = re.compile(r"^[ \t]*[-\u2022*+][ \t]+", re.M)
_ASTERISKS = re.compile(r"\*+")


def slugify(text: str) -> str:
    """A stable, readable id fragment (``matching-commander``) from any title."""
    return normalize(text, fold_plurals=False).replace(" ", "-") or "untitled"


def initialism(text: str) -> str:
    """``Klingon Tea Ceremony`` -> ``ktc``; empty for one-word titles."""
    words = normalize(text, fold_plurals=False).split()
    return "".join(w[0] for w in words) if len(words) > 1 else ""


# ------------------------------------------------------------------ terms for passage search
# Words that carry no topic in a question or a passage ("how do I win the game").
STOPWORDS = frozenset(
    """a an the i me my we you your it its is are was be been am do does did doing how what
    when where which who whom why can could should would will shall may might must to of in
    on for with about at by from into as if or and but so than then there this that these
    those happen happens happened rule rules ruling rulings work works mean means explain
    explanation explanations explained explaining
    tell please question q vs versus get gets s they them their he she his her not no yes
    any some just also still only such each one has have had being were i e eg ie etc ok
    like use used using want
    someone somebody anyone anybody something anything everyone everything thing things
    wonder wondering wondered know think thanks thank hi hello hey guys clarify understand
    confused seem seems really basically actually exactly sure okay""".split()
)


class Lexicon:
    """The game vocabulary of ``rulings_data/lexicon.yaml``, ready to apply."""

    def __init__(self, data: dict | None = None):
        data = data or {}
        self.abbreviations = {
            str(short): f" {long} " for short, long in (data.get("abbreviations") or {}).items()
        }
        alternatives = "|".join(
            re.escape(short) for short in sorted(self.abbreviations, key=len, reverse=True)
        )
        self._abbreviation = (
            re.compile(rf"(?<![\w'])(?:{alternatives})(?![\w'])") if alternatives else None
        )
        self.phrases: dict[tuple[str, ...], tuple[str, ...]] = {}
        # Only the compounds: the words as written, which keep their edition's flavour (1E
        # says "crew" where 2E says "personnel"; the synonyms fold the one into the other).
        self.compounds: dict[tuple[str, ...], tuple[str, ...]] = {}
        for group in data.get("synonyms") or []:
            head = tuple(normalize(str(group[0]), fold_plurals=False).split())
            for member in group:
                words = tuple(normalize(str(member), fold_plurals=False).split())
                if words and words != head:
                    self.phrases[words] = head
        for open_form, closed in data.get("compounds") or []:
            joined = (normalize(str(closed), fold_plurals=False),)
            self.compounds[tuple(normalize(str(open_form), fold_plurals=False).split())] = joined
        self.phrases.update(self.compounds)
        self.longest = max((len(k) for k in self.phrases), default=1)
        self.unstemmed = frozenset(
            normalize(str(w), fold_plurals=False) for w in data.get("unstemmed") or []
        )

    def spell_out(self, text: str) -> str:
        """The text with its abbreviations spelt out ("AU Door": "alternate universe Door"),
        otherwise as written."""
        if self._abbreviation is None:
            return text
        spelt = self._abbreviation.sub(lambda m: self.abbreviations[m.group(0)], text)
        return " ".join(spelt.split()) if spelt != text else text

    def expand(self, text: str) -> list[str]:
        """The words of a text with abbreviations spelt out, synonyms and compounds folded."""
        return self.expand_written(text)[0]

    def expand_written(self, text: str) -> tuple[list[str], list[str]]:
        """:meth:`expand`, and the same words with the synonyms left as written."""
        if self._abbreviation is not None:
            text = self._abbreviation.sub(lambda m: self.abbreviations[m.group(0)], text)
        # A hyphenated term also stands for its closed form: "mis-seed" is "misseed".
        text = _HYPHENATED.sub(lambda m: f"{m.group(0)} {m.group(0).replace('-', '')}", text)
        words = normalize(text, fold_plurals=False).split()
        folded: list[str] = []
        written: list[str] = []
        i = 0
        while i < len(words):
            for size in range(min(self.longest, len(words) - i), 0, -1):
                key = tuple(words[i : i + size])
                replacement = self.phrases.get(key)
                if replacement is not None:
                    folded.extend(replacement)
                    written.extend(replacement if key in self.compounds else key)
                    i += size
                    break
            else:
                folded.append(words[i])
                written.append(words[i])
                i += 1
        return folded, written


_HYPHENATED = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")
_LEXICON: list[Lexicon] = []
# A Snowball stemmer keeps the word it works on in itself: one per thread, or two lookups
# stemming at once corrupt each other's word.
_STEMMER = threading.local()
_STEMS: dict[str, str] = {}


def lexicon() -> Lexicon:
    """The shipped lexicon, read once (``RULINGS_DATA`` or the bundled ``rulings_data/``)."""
    if not _LEXICON:
        import yaml

        from bot.paths import default_data_dir

        path = default_data_dir() / "lexicon.yaml"
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError:
            data = None
        _LEXICON.append(Lexicon(data))
    return _LEXICON[0]


def stem(word: str) -> str:
    """The Snowball (Porter 2) English stem of a normalised word, unless the lexicon keeps it."""
    found = _STEMS.get(word)
    if found is None:
        stemmer = getattr(_STEMMER, "english", None)
        if stemmer is None:
            import snowballstemmer

            stemmer = _STEMMER.english = snowballstemmer.stemmer("english")
        found = word if word in lexicon().unstemmed or word.isdigit() else stemmer.stemWord(word)
        if len(_STEMS) < 200_000:
            _STEMS[word] = found
    return found


def _term_words(text: str) -> list[str]:
    """The words a text's terms are stemmed from: the lexicon applied, stop words dropped."""
    return [w for w in lexicon().expand(str(text)) if w not in STOPWORDS]


def terms(text: str) -> list[str]:
    """The search terms of a passage or a question: the lexicon applied, stop words dropped,
    each word stemmed. Passages and questions both go through here, so they meet."""
    return [stem(w) for w in _term_words(text)]


def terms_as_written(text: str) -> tuple[list[str], list[str]]:
    """:func:`terms`, and the terms of the words as written (synonyms not folded): which
    edition a text belongs to shows in the words it uses ("crew" is 1E's, "personnel" both)."""
    return terms_with_words(text)[1:]


def terms_with_words(text: str) -> tuple[list[str], list[str], list[str]]:
    """:func:`terms_as_written`, after the words the terms are stemmed from (the lexicon
    applied, stop words dropped): a typo is nearer the word it misspells than that word's
    stem ("condtional" is "conditional" mistyped, but its stem is nearer "continu")."""
    folded, written = lexicon().expand_written(str(text))
    words = [w for w in folded if w not in STOPWORDS]
    return words, [stem(w) for w in words], [stem(w) for w in written if w not in STOPWORDS]


def worded_terms(text: str) -> list[tuple[str, str]]:
    """:func:`terms` with the word each term was stemmed from: (word, term)."""
    return [(w, stem(w)) for w in _term_words(text)]


_QUOTED = re.compile(
    r'"([^"]{1,120})"'
    # Single quotes only at word edges, so that apostrophes (Rakal's, players', can't)
    # never open or close a phrase.
    r"|(?:^|(?<=[\s(\[]))'([^'\s](?:[^']{0,118}[^'\s])?)'(?=$|[\s.,;:!?)\]])"
)


def quoted_phrases(text: str) -> list[list[str]]:
    """The terms of each phrase a query puts in quotes (double, or single at word edges;
    straight or curly), in order. A quoted phrase is the words the user means: an answer
    should hold them together."""
    spans = _QUOTED.findall(str(text).translate(_TRANSLATE))
    found = (terms(double or single) for double, single in spans)
    return [run for run in found if run]


def holds_run(sequence: list[str], run: list[str]) -> bool:
    """Whether ``run`` occurs in ``sequence`` as consecutive items."""
    width = len(run)
    return any(sequence[i : i + width] == run for i in range(len(sequence) - width + 1))
