"""LackeyCCG card lists -> one compact, reviewable card index per edition.

The Lackey plugins' tab-separated lists (``cards_dir/1e/*.txt``, ``cards_dir/2e/*.txt``) hold
every printing of every card. This module reads them strictly (a malformed file raises
:class:`CardListError` naming the file and line), reconciles the names with the way rulings
print them, groups the printings of one card into one :class:`~bot.models.Card` and writes
``rulings_data/cards/1e.yaml`` / ``2e.yaml``: id, title, subtitle, type, text and sets only.

Name reconciliation:

* Reprint and alternate suffixes are dropped: ``Garak*``, ``... *VP``, ``*AP``, ``*VAP``, ``*A``.
* 1E ``Name (Parenthetical)`` is title + subtitle (``Jean-Luc Picard (First Contact)``).
* 1E rows whose ``Set`` is ``ban_2E`` are 2E cards listed for the 1E plugin's ban list; they
  are not 1E cards, but their names (``Worf 2E (Son of Mogh)``) tell where a 2E title ends.
  One row so named carries another Set; it is skipped too, with a warning.
* 2E joins title and subtitle with a space (``Kira Nerys Iliana Ghemor``). A 2E personnel or
  ship name is split, in order, by the exact ``ban_2E`` name; by the longest word-prefix that
  is a known title (a ``ban_2E`` title, a 1E personnel/ship title, another 2E personnel/ship
  card's whole name); at a comma; by the word-prefix most 2E personnel/ship names branch from.
  Other 2E cards keep their whole name as title.
* A 2E trailing ``(BP)``/``(IDR)``-style marker is dropped when the printing is a plain reprint
  (same type and text as the unmarked card) and otherwise kept as (part of) the subtitle.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import validate
from bot.ingest.dataset import parse_yaml
from bot.models import EDITIONS, Card
from bot.normalize import normalize, slugify

SETLIST_FILE = "setlist.txt"
BAN_2E_SET = "ban_2E"
EXPECTED_COLUMNS = {"1E": 28, "2E": 23}
# The columns this module reads, by header name; "sets" is the set (release) code.
_COLUMNS = {
    "1E": {"name": "Name", "set": "Set", "release": "Release", "type": "Type", "text": "Text"},
    "2E": {"name": "Name", "set": "Set", "type": "Type", "text": "Text"},
}
_SPLIT_TYPES = frozenset({"personnel", "ship"})
# Words a title does not end with: "Three of Twelve Specialty Drone" does not split after "of".
_CONNECTORS = frozenset({"of", "the", "a", "an", "and", "to", "in", "on", "for", "at", "from"})

# " *VP", " *AP", " *VAP", " *A", a bare "*" (also "**"), and the stray "+" of a VP variant.
_SUFFIX = re.compile(r"\s*(?:\*(?:VAP|VP|AP|A)|[*+])\s*$")
_TRAILING_PAREN = re.compile(r"^(?P<base>.*\S)\s+\((?P<paren>[^()]+)\)$")
_BAN_NAME = re.compile(r"^(?P<title>.+?)\s+2E(?:\s+\((?P<paren>.+)\))?$")
# The ban list's "(Second Edition)" only tells the 2E card from a 1E namesake: no subtitle.
_NO_SUBTITLE = "Second Edition"


class CardListError(ValueError):
    """A card list is malformed; the message names the file and, where known, the line."""


@dataclass
class _Row:
    """One printing as read from a list: where it came from and the columns used here."""

    file: str
    line: int
    name: str
    set: str
    type: str
    text: str


@dataclass
class _Edition:
    """What reading one edition's lists produced, before grouping."""

    rows: list[_Row]
    files: list[str]
    warnings: list[str]


# --------------------------------------------------------------------------- reading


def _key(text: str) -> str:
    """The grouping key of a name: the shared normalisation, without plural folding."""
    return normalize(text, fold_plurals=False)


def _read_list(path: Path, edition: str) -> tuple[list[_Row], list[str]]:
    """Read one Lackey list strictly. Raises CardListError naming the file and line."""
    raw = path.read_bytes()
    try:
        content = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CardListError(
            f"{path}: line {line}: not UTF-8 (byte {raw[exc.start]:#04x} at offset {exc.start})"
        ) from None
    if not content.strip():
        raise CardListError(f"{path}: line 1: empty file, expected a header row")
    reader = csv.reader(io.StringIO(content, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = [cell.strip() for cell in next(reader)]
    wanted = _COLUMNS[edition]
    missing = [col for col in wanted.values() if col not in header]
    if missing:
        raise CardListError(
            f"{path}: line 1: header lacks column(s) {', '.join(map(repr, missing))}"
        )
    index = {field: header.index(col) for field, col in wanted.items()}
    warnings = []
    if len(header) != EXPECTED_COLUMNS[edition]:
        warnings.append(
            f"{path.name}: line 1: {len(header)} columns, expected "
            f"{EXPECTED_COLUMNS[edition]} for {edition}"
        )
    rows = []
    for cells in reader:
        line = reader.line_num
        if not cells or not any(cell.strip() for cell in cells):
            continue  # blank line
        if len(cells) != len(header):
            raise CardListError(
                f"{path}: line {line}: {len(cells)} columns, the header has {len(header)}"
            )
        if [cell.strip() for cell in cells] == header:
            continue  # a repeated header row
        name = cells[index["name"]].strip()
        if not name:
            warnings.append(f"{path.name}: line {line}: row without a name skipped")
            continue
        set_code = cells[index["set"]].strip()
        if edition == "1E" and set_code != BAN_2E_SET:
            # 1E's Set column holds format legality; the release is the set code.
            set_code = cells[index["release"]].strip() or set_code
        rows.append(
            _Row(
                file=path.name,
                line=line,
                name=name,
                set=set_code,
                type=cells[index["type"]].strip(),
                text=cells[index["text"]].strip(),
            )
        )
    return rows, warnings


def _edition_dir(cards_dir: Path, edition: str) -> Path:
    return Path(cards_dir) / edition.lower()


def _read_edition(cards_dir: Path, edition: str) -> _Edition:
    folder = _edition_dir(cards_dir, edition)
    if not folder.is_dir():
        raise CardListError(f"{folder}: no such folder of {edition} card lists")
    paths = sorted(p for p in folder.glob("*.txt") if p.name.lower() != SETLIST_FILE)
    if not paths:
        raise CardListError(f"{folder}: no card lists (*.txt) found")
    rows: list[_Row] = []
    warnings: list[str] = []
    for path in paths:
        file_rows, file_warnings = _read_list(path, edition)
        rows += file_rows
        warnings += file_warnings
    return _Edition(rows=rows, files=[p.name for p in paths], warnings=warnings)


def _edition_of(edition: str) -> str:
    try:
        return validate.edition(edition)
    except validate.InvalidValue:
        raise ValueError(
            f"unknown edition {edition!r}; expected one of {', '.join(EDITIONS)}"
        ) from None


def _is_edition(value: object) -> bool:
    """Exactly "1E" or "2E", as an index file writes it."""
    try:
        return validate.edition(value) == value
    except validate.InvalidValue:
        return False


# --------------------------------------------------------------------------- names


def strip_suffix(name: str) -> str:
    """``Garak*`` -> ``Garak``; ``Kira Nerys Iliana Ghemor *VP`` -> ``Kira Nerys Iliana Ghemor``."""
    name = name.strip()
    while True:
        stripped = _SUFFIX.sub("", name)
        if stripped == name or not stripped:
            return name
        name = stripped


def split_1e(name: str) -> tuple[str, str | None]:
    """1E ``Title (Subtitle)`` -> title, subtitle; anything else is a bare title."""
    name = strip_suffix(name)
    match = _TRAILING_PAREN.match(name)
    if match:
        return match["base"], match["paren"].strip()
    return name, None


def _ban_name(name: str) -> tuple[str, str | None] | None:
    """``Worf 2E (Son of Mogh)`` -> ("Worf", "Son of Mogh"); None when not in that form."""
    match = _BAN_NAME.match(strip_suffix(name))
    if not match:
        return None
    paren = match["paren"]
    return match["title"].strip(), (paren.strip() if paren and paren != _NO_SUBTITLE else None)


@dataclass
class _Hints:
    """What splits 2E joined names: exact ban_2E names and known titles, as grouping keys."""

    exact: dict[str, tuple[str, str | None]]  # key of the joined name -> (title, subtitle)
    titles: set[str]  # keys of ban_2E personnel/ship titles
    titles_1e: set[str]  # keys of 1E personnel/ship titles


def _is_2e_row(row: _Row) -> bool:
    """A 2E card in the 1E lists: Set ``ban_2E``, or (one mis-tagged row) named ``X 2E (...)``."""
    return row.set == BAN_2E_SET or _ban_name(row.name) is not None


def _ban_hints(rows_1e: list[_Row]) -> _Hints:
    exact: dict[str, tuple[str, str | None]] = {}
    titles: set[str] = set()
    titles_1e: set[str] = set()
    for row in rows_1e:
        if _is_2e_row(row):
            parsed = _ban_name(row.name)
            if parsed is None:
                continue
            title, sub = parsed
            if row.type.casefold() in _SPLIT_TYPES:
                titles.add(_key(title))
            if sub:
                exact.setdefault(_key(f"{title} {sub}"), (title, sub))
            else:
                exact.setdefault(_key(title), (title, None))
        elif row.type.casefold() in _SPLIT_TYPES:
            titles_1e.add(_key(split_1e(row.name)[0]))
    return _Hints(exact=exact, titles=titles, titles_1e=titles_1e)


def _prefix_keys(words: list[str]) -> list[str]:
    """Keys of the proper word-prefixes of a name, shortest first."""
    return [_key(" ".join(words[:k])) for k in range(1, len(words))]


class _Splitter:
    """Splits 2E joined personnel/ship names; built once from all the names of the edition."""

    def __init__(self, hints: _Hints, names: dict[str, str]):
        """``names``: every 2E personnel/ship name (no suffix or marker) -> its type."""
        self.hints = hints
        # Titles a whole 2E name may be: ban_2E titles, other 2E cards' whole names.
        self.whole = set(hints.titles)
        keys = {_key(n) for n in names}
        # Another 2E card's whole name is a title when it is a word-prefix of a longer name.
        for name in names:
            for prefix in _prefix_keys(name.split()):
                if prefix in keys:
                    self.whole.add(prefix)
        # Titles a 2E name may start with: those and the 1E titles.
        self.titles = self.whole | hints.titles_1e
        # Every word-prefix of a known title: "benjamin", "charles tucker".
        self.title_prefixes = {p for t in self.titles for p in _prefix_keys(t.split())}
        # Per type: the next words after each word-prefix, and the remainders' lengths.
        self.children: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
        for name, card_type in names.items():
            words = name.split()
            for k, prefix in enumerate(_prefix_keys(words), 1):
                nxt = self.children[(card_type, prefix)]
                nxt[_key(words[k])] = max(nxt.get(_key(words[k]), 0), len(words) - k)

    def _branch_score(self, words: list[str], k: int, card_type: str) -> int:
        """How many names branch after ``words[:k]``, or 0 when that is no plausible title.

        A title is a prefix that two or more names of the type continue differently, that
        does not end in a connector ("Three of"), and is not a first name (some longer
        prefix through it starts a known title: "Benjamin" of "Benjamin Sisko"). A
        one-word prefix needs three continuations or two of several words ("Opaka", not
        "Brian Evethers"/"Brian Sofin"); a ship's title needs two words and continuations of
        several words ("I.K.S. Negh'Var", not "I.K.S." or "Borg").
        """
        prefix = _key(" ".join(words[:k]))
        nxt = self.children.get((card_type, prefix), {})
        if len(nxt) < 2 or _key(words[k - 1]) in _CONNECTORS or prefix in _CONNECTORS:
            return 0
        if any(
            f"{prefix} {word}" in self.titles or f"{prefix} {word}" in self.title_prefixes
            for word in nxt
            if word != "founder"  # "Leyton Founder" (a changeling) is no Leyton's surname
        ):
            return 0
        long_tails = sum(1 for n in nxt.values() if n >= 2)
        if card_type == "ship":
            return len(nxt) if k >= 2 and long_tails >= 2 else 0
        if k == 1 and len(nxt) < 3 and long_tails < 2:
            return 0
        return len(nxt)

    def _extends(self, words: list[str], k: int, card_type: str) -> bool:
        """Whether names go on from ``words[:k]`` in several ways, each of several words."""
        nxt = self.children.get((card_type, _key(" ".join(words[:k]))), {})
        return len(nxt) >= 2 and all(n >= 2 for n in nxt.values())

    def split(self, name: str, card_type: str) -> tuple[str, str | None, str]:
        """(title, subtitle, rule) for a 2E name without suffix or marker."""
        key = _key(name)
        exact = self.hints.exact.get(key)
        if exact is not None:
            return exact[0], exact[1], "ban_2E"
        if card_type not in _SPLIT_TYPES or key in self.whole:
            return name, None, "whole"
        words = name.split()
        prefixes = _prefix_keys(words)
        for k in range(len(prefixes), 0, -1):
            if prefixes[k - 1] in self.titles:
                # "Ezri" is known, but "Ezri Tigan ..." names branch on after "Tigan".
                if k == 1 and len(words) > 2 and self._extends(words, 2, card_type):
                    k += 1
                return " ".join(words[:k]), " ".join(words[k:]), "known title"
        if ", " in name and '"' not in name:
            title, sub = name.split(", ", 1)
            return title, sub, "comma"
        best = (0, 0)
        for k in range(1, len(words)):
            best = max(best, (self._branch_score(words, k, card_type), k))
        if best[0]:
            k = best[1]
            return " ".join(words[:k]), " ".join(words[k:]), "branching prefix"
        return name, None, "whole"


# --------------------------------------------------------------------------- grouping


@dataclass
class _Named:
    row: _Row
    title: str
    subtitle: str | None


def _name_1e(rows: list[_Row]) -> tuple[list[_Named], list[str]]:
    out, warnings = [], []
    for row in rows:
        if _is_2e_row(row):
            if row.set != BAN_2E_SET:
                warnings.append(
                    f"{row.file}: line {row.line}: {row.name!r} (set {row.set!r}) is named as a "
                    "2E card: skipped like the ban_2E rows"
                )
            continue
        title, sub = split_1e(row.name)
        out.append(_Named(row, title, sub))
    return out, warnings


def _name_2e(rows: list[_Row], hints: _Hints) -> tuple[list[_Named], list[str]]:
    warnings = []
    bases = []  # (row, base name, marker)
    for row in rows:
        name = strip_suffix(row.name)
        match = _TRAILING_PAREN.match(name)
        if match:
            bases.append((row, match["base"], match["paren"].strip()))
        else:
            bases.append((row, name, None))
    # A marker printing is a reprint when an unmarked printing has the same type and text.
    unmarked: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row, base, marker in bases:
        if marker is None:
            unmarked[(_key(base), row.type.casefold())].add(" ".join(row.text.split()))
    splitter = _Splitter(
        hints,
        {
            base: row.type.casefold()
            for row, base, _ in sorted(bases, key=lambda b: (b[1], b[0].type.casefold()))
            if row.type.casefold() in _SPLIT_TYPES
        },
    )
    out = []
    for row, base, marker in bases:
        if marker is not None:
            texts = unmarked.get((_key(base), row.type.casefold()), set())
            if " ".join(row.text.split()) in texts:
                marker = None
        title, sub, _rule = splitter.split(base, row.type.casefold())
        if marker is not None:
            sub = f"{sub} ({marker})" if sub else marker
        out.append(_Named(row, title, sub))
    return out, warnings


def _group(named: list[_Named], edition: str) -> list[Card]:
    groups: dict[tuple[str, str, str], list[_Named]] = {}
    for item in named:
        key = (_key(item.title), _key(item.subtitle or ""), item.row.type.casefold())
        groups.setdefault(key, []).append(item)
    cards = []
    used: set[str] = set()
    for items in groups.values():  # in order of first appearance: deterministic
        first, newest = items[0], items[-1]
        card = Card(
            id="",
            edition=edition,
            title=first.title,
            subtitle=first.subtitle,
            type=first.row.type,
            text=newest.row.text,
            sets=list(dict.fromkeys(i.row.set for i in items if i.row.set)),
        )
        base = f"{edition.lower()}-{slugify(card.name)}"
        card_id, n = base, 1
        while card_id in used:
            n += 1
            card_id = f"{base}-{n}"
        used.add(card_id)
        card.id = card_id
        cards.append(card)
    return sorted(cards, key=lambda c: c.id)


def _load(cards_dir: Path, edition: str) -> tuple[list[Card], list[str], _Edition]:
    edition = _edition_of(edition)
    read = _read_edition(cards_dir, edition)
    warnings = list(read.warnings)
    if edition == "1E":
        named, more = _name_1e(read.rows)
        warnings += more
    else:
        rows_1e: list[_Row] = []
        if _edition_dir(cards_dir, "1E").is_dir():
            rows_1e = _read_edition(cards_dir, "1E").rows
        else:
            warnings.append("no 1E lists beside the 2E lists: 2E names split without ban_2E")
        named, more = _name_2e(read.rows, _ban_hints(rows_1e))
        warnings += more
    return _group(named, edition), warnings, read


def read_lackey(cards_dir: Path, edition: str) -> tuple[list[Card], list[str]]:
    """Every card of one edition (``"1E"``/``"2E"``) from ``cards_dir/1e`` or ``cards_dir/2e``.

    Reads each ``*.txt`` list but ``setlist.txt`` in sorted file order and groups the printings
    of a card into one :class:`Card` (sorted by id). Returns the cards and warning strings;
    raises :class:`CardListError` on a malformed list.
    """
    cards, warnings, _ = _load(cards_dir, edition)
    return cards, warnings


# --------------------------------------------------------------------------- name forms


def name_forms(card: Card) -> list[str]:
    """Every way rulings and players write the card, most specific first, no repeats.

    ``Kira Nerys, Iliana Ghemor``, ``Kira Nerys (Iliana Ghemor)``, ``Kira Nerys Iliana Ghemor``
    and the (ambiguous) title alone, ``Kira Nerys``.
    """
    forms = [card.name]
    if card.subtitle:
        forms += [
            f"{card.title} ({card.subtitle})",
            f"{card.title} {card.subtitle}",
            card.title,
        ]
    return list(dict.fromkeys(forms))


# --------------------------------------------------------------------------- the index files


def dump_card_index(cards: list[Card]) -> str:
    """The YAML text of one edition's index: sorted by id, only the reviewable fields."""
    editions = {c.edition for c in cards}
    if len(editions) > 1:
        raise ValueError(f"one edition per index, got {sorted(editions)}")
    records = []
    for card in sorted(cards, key=lambda c: c.id):
        record: dict[str, object] = {"id": card.id, "title": card.title}
        if card.subtitle is not None:
            record["subtitle"] = card.subtitle
        record["type"] = card.type
        if card.text:
            record["text"] = card.text
        record["sets"] = list(card.sets)
        records.append(record)
    data = {"edition": editions.pop() if editions else None, "cards": records}
    import yaml  # here, not at the top: a lookup never writes or reads a card list

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, width=100)


def write_card_index(cards: list[Card], path: Path) -> None:
    """Write one edition's index atomically; the same cards always give the same bytes."""
    text = dump_card_index(cards)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(text.encode("utf-8"))
    os.replace(tmp, path)


# Parsing a card list is most of a store build (0.85 of 1 s: PyYAML builds some 100,000
# objects); a process that builds again (after a data change, a damaged store, a rebuild
# beside another process) reads the same bytes. Kept by content, a few of them, read-only.
_PARSED: dict[bytes, Any] = {}
_PARSED_KEPT = 4


def _parsed(raw: bytes) -> Any:
    key = hashlib.sha256(raw).digest()
    if key not in _PARSED:
        if len(_PARSED) >= _PARSED_KEPT:
            _PARSED.pop(next(iter(_PARSED)))
        # PyYAML is imported on first use (bot.ingest.dataset): a lookup never reads a card list
        _PARSED[key] = parse_yaml(raw.decode("utf-8"))
    return _PARSED[key]


def load_card_index(path: Path) -> list[Card]:
    """Read an index written by :func:`write_card_index`. Raises CardListError if malformed."""
    import yaml

    path = Path(path)
    try:
        data = _parsed(path.read_bytes())
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise CardListError(f"{path}: not a valid card index: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardListError(f"{path}: expected a mapping with 'edition' and a 'cards' list")
    edition = data.get("edition")
    if edition is None and not data["cards"]:
        return []
    if not _is_edition(edition):
        raise CardListError(f"{path}: unknown edition {edition!r}")
    cards = []
    for n, record in enumerate(data["cards"], 1):
        try:
            cards.append(
                Card(
                    id=str(record["id"]),
                    edition=edition,
                    title=str(record["title"]),
                    subtitle=None if record.get("subtitle") is None else str(record["subtitle"]),
                    type=str(record["type"]),
                    text=str(record.get("text") or ""),
                    sets=[str(s) for s in record.get("sets") or []],
                )
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise CardListError(f"{path}: card #{n}: missing or malformed field {exc}") from None
    return cards


def import_cards(cards_dir: Path, out_dir: Path) -> dict:
    """Read both editions' lists and write ``out_dir/1e.yaml`` and ``out_dir/2e.yaml``.

    Nothing is written unless both editions read cleanly. Returns, per edition, the files
    and rows read, the cards written, whether the file changed and the warnings.
    """
    results = {}
    loaded = {}
    for edition in EDITIONS:
        cards, warnings, read = _load(cards_dir, edition)
        loaded[edition] = cards
        skipped = sum(1 for r in read.rows if _is_2e_row(r)) if edition == "1E" else 0
        results[edition] = {
            "files": read.files,
            "rows": len(read.rows),
            "skipped_2e": skipped,
            "cards": len(cards),
            "warnings": warnings,
        }
    for edition, cards in loaded.items():
        path = Path(out_dir) / f"{edition.lower()}.yaml"
        text = dump_card_index(cards)
        changed = not path.exists() or path.read_bytes() != text.encode("utf-8")
        if changed:
            write_card_index(cards, path)
        results[edition]["path"] = str(path)
        results[edition]["changed"] = changed
    return results
