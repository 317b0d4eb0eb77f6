"""What the project already knows a title to be: a card of either edition, a topic title
of the shipped rulings, or a curated alias. The reader uses it to tell an entry head from a
heading or a site's menu; it never decides alone (an unknown title may be a new topic)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from bot.ingest.dataset import default_data_dir
from bot.normalize import normalize

# Read the YAML as text: one linear pattern over 2 MB costs milliseconds, parsing it seconds.
_TITLE = re.compile(r"^  title: (.+)$", re.M)
_ALIAS = re.compile(r"^  - alias: (.+)$", re.M)
# A 2E personnel is printed "Data, Tempted by Flesh" in rulings: its title and subtitle.
_SUBTITLED = re.compile(r"^  title: (.+)\n  subtitle: (.+)$", re.M)
_TYPE = re.compile(r"^  type: (.+)$", re.M)
_STRIP = " '\"*❖•"
_MAX_TITLE = 120


def unquote(value: str) -> str:
    """A YAML scalar as the card lists and the shipped entries print it on one line: plain,
    or single-quoted with its quotes doubled inside."""
    value = value.strip()
    if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1].replace("''", "'")
    return value


@functools.lru_cache(maxsize=4)
def _known(data_dir: str) -> frozenset[str]:
    return _load(data_dir)[0]


@functools.lru_cache(maxsize=4)
def _starts(data_dir: str) -> dict[str, int]:
    return _load(data_dir)[1]


@functools.lru_cache(maxsize=4)
def _load(
    data_dir: str,
) -> tuple[frozenset[str], dict[str, int], frozenset[str], frozenset[str]]:
    """The keys of every known title; for each title's first word (as a key) the most words
    a known title starting with it has (what a scan of running text may look up); the card
    types the card lists print (casefolded, "Interrupt/Event" also as its parts); and the
    keys of the cards' titles alone."""
    root = Path(data_dir)
    titles: list[str] = []
    types: set[str] = set()
    cards = sorted((root / "cards").glob("*.yaml"))
    card_titles = 0
    for path in [*cards, *sorted((root / "entries").glob("*.yaml"))]:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        titles += (unquote(match.group(1)) for match in _TITLE.finditer(text))
        if path in cards:
            types.update(unquote(m.group(1)).casefold() for m in _TYPE.finditer(text))
        titles += (
            f"{unquote(match.group(1))}, {unquote(match.group(2))}"
            for match in _SUBTITLED.finditer(text)
        )
        if path in cards:
            card_titles = len(titles)
    try:
        aliases = (root / "aliases.yaml").read_text(encoding="utf-8")
    except OSError:
        aliases = ""
    titles += (unquote(m.group(1)) for m in _ALIAS.finditer(aliases))
    keys: set[str] = set()
    starts: dict[str, int] = {}
    for title in titles:
        title_key = key(title)
        if not title_key:
            continue
        keys.add(title_key)
        first = title_key.split()[0]
        starts[first] = max(starts.get(first, 0), len(title.split()))
    card_types = frozenset(t for part in types for t in (part, *part.split("/")))
    card_keys = frozenset(key(title) for title in titles[:card_titles])
    return frozenset(keys), starts, card_types, card_keys


# A word, a hyphenated one whole ("cost-related"): runs of letters between single hyphens,
# so a pass is linear.
WHOLE_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@functools.lru_cache(maxsize=4)
def _words(data_dir: str) -> frozenset[str]:
    words: set[str] = set()
    root = Path(data_dir)
    for path in [
        *sorted((root / "cards").glob("*.yaml")),
        *sorted((root / "entries").glob("*.yaml")),
    ]:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        words.update(word.lower() for word in WHOLE_WORD.findall(text))
    return frozenset(words)


def words(data_dir: Path | None = None) -> frozenset[str]:
    """Every word the shipped rulings and card texts print, in lower case (a hyphenated
    word whole): what tells a word a typesetter broke at a line's end ("at-" over "tempts")
    from one that has its hyphen ("cost-" over "related")."""
    return _words(str(data_dir or default_data_dir()))


def is_card_type(word: str, data_dir: Path | None = None) -> bool:
    """Whether ``word`` names a card type of either edition ("Personnel", "Q Dilemma")."""
    return word.strip().casefold() in _load(str(data_dir or default_data_dir()))[2]


def is_card(title: str, data_dir: Path | None = None) -> bool:
    """Whether ``title`` is a card of either edition (not a topic or an alias)."""
    title = title.strip(_STRIP)
    if not title or len(title) > _MAX_TITLE:
        return False
    return key(title) in _load(str(data_dir or default_data_dir()))[3]


def key(title: str) -> str:
    """The comparison key of a printed title (marks, quotes and case folded away)."""
    return normalize(title.strip(_STRIP)[:_MAX_TITLE])


def most_words_from(word: str, data_dir: Path | None = None) -> int:
    """The most words a known title that starts with ``word`` has (0: none starts so)."""
    first = key(word[:_MAX_TITLE]).split()
    return _starts(str(data_dir or default_data_dir())).get(first[0], 0) if first else 0


def is_known(title: str, data_dir: Path | None = None) -> bool:
    """Whether ``title`` is a card, topic or alias the project ships (either edition)."""
    title = title.strip(_STRIP)
    if not title or len(title) > _MAX_TITLE:
        return False
    known = _known(str(data_dir or default_data_dir()))
    if key(title) in known:
        return True
    # An inverted card title as glossaries print it ("Line Must Be Drawn Here, The").
    if title.endswith(", The"):
        return key("The " + title[:-5]) in known
    return False


# A heading phrased as a question ("How to use the Glossary", "What is cost?") opens a
# preamble's or an article's paragraph, never a rules entry (unless a card is so titled).
QUESTION_WORDS = frozenset("how what why where who which".split())
# Words a title in title case leaves in lower case ("Deck Size (the 30/30 Rule)").
SMALL_WORDS = frozenset("a an the of and or to in on at for with by from vs".split())

# Words every rules text of the game uses (English, and the Italian and German of the fan
# translations): a page of a few hundred words with hardly any of them is about something
# else (another game's dictionary, a glossary of the shows' lore), however glossary-like.
GAME_WORDS = frozenset(
    "card cards player players opponent opponent's play plays played dilemma dilemmas "
    "mission missions personnel seed seeds seeded deck discard discarded turn draw "
    "affiliation away skill skills icon errata rule rules ruling rulings game text counter "
    "download report stopped encounter carta carte giocatore missione missioni mazzo karte "
    "karten spieler spiel".split()
)
# The words only this game's rules use (its card types, attributes, affiliations, places),
# in English and in the Italian the project's translated pages print: another card or board
# game's glossary shares "card", "player" and "turn" with it, hardly ever these.
GAME_TERMS = frozenset(
    "dilemma dilemmas mission missions personnel seed seeds seeded seeding spaceline "
    "affiliation affiliations download downloads downloaded downloading skill skills outpost "
    "outposts facility facilities headquarters doorway doorways quadrant quadrants staffing "
    "staffed tribble tribbles nullify nullifies nullified ship ships borg federation klingon "
    "romulan cardassian bajoran ferengi dominion starfleet interrupt interrupts equipment "
    "artifact artifacts objective objectives incident incidents integrity cunning weapons "
    "shields span report reports reported reporting dilemmi missione missioni personale nave "
    "navi".split()
)
_WORD = re.compile(r"[A-Za-z']+")
OFF_GAME_WORDS = 80  # a page this long may be judged by its words
OFF_GAME_SHARE = 0.01  # rules pages seen hold 2.3 % or more of these words; off-game ones 0.3 %


def _share(text: str, vocabulary: frozenset[str]) -> tuple[float, int]:
    """(share of ``vocabulary`` among the text's words, number of words)."""
    # a possessive counts as its word however the apostrophe is typed ("mission's" and
    # "mission’s" alike)
    words = [w.removesuffix("'s") for w in _WORD.findall(text[:200_000].lower().replace("’", "'"))]
    return sum(word in vocabulary for word in words) / max(1, len(words)), len(words)


def game_term_share(text: str) -> tuple[float, int]:
    """(share of :data:`GAME_TERMS` among the text's words, number of words)."""
    return _share(text, GAME_TERMS)


def game_word_share(text: str) -> tuple[float, int]:
    """(share of the game's words among the text's words, number of words)."""
    return _share(text, GAME_WORDS)
