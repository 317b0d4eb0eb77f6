"""``rulings import``: source documents -> one reviewable YAML file per document.

Every entry gets a stable id, its topic (the same rule across documents and editions is one
topic per edition, with one version per document), resolved cross references and the cards
and rules terms its text mentions. Nothing is written until every document has parsed, and
each file is replaced atomically, so malformed input leaves the existing data untouched.
"""

from __future__ import annotations

import inspect
import logging
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ingest.cards import load_card_index, name_forms, read_lackey, write_card_index
from bot.ingest.dataset import (
    CARDS_DIR,
    ENTRIES_DIR,
    dump_yaml,
    entries_path,
    load_documents,
    replace_files_together,
)
from bot.ingest.parsers import ParsedEntry, SourceFormatError, get_parser
from bot.models import KIND_CARD_RULING, KIND_RULE, Card, Document
from bot.normalize import normalize, plain_spaces, slugify

log = logging.getLogger(__name__)

# The longest card name or rules term, in words, that a mention scan looks for.
_MAX_NAME_WORDS = 9
# Lower-case words allowed inside a capitalised card name ("Guess Who's Coming to Dinner?").
_NAME_CONNECTORS = {"of", "the", "to", "a", "an", "and", "in", "on", "for", "at", "from", "with"}
_TOKEN = re.compile(r"[\w'’.\-]+|[^\w\s]")
# openCards prints an affiliation icon as its image's alt text, "Affiliation Klingon"; the
# CRDs print "[Kli]". Either is an icon, not a word of a name ("a [Fed] Worf").
# "X, Y and Z": possessive from the start of a run of spaces (linear on long runs).
_REFERENCE_BREAK = re.compile(r",\s*+|(?<!\s)\s++and\s+")
_ICON_ALT_TEXT = re.compile(r"\bAffiliation ([A-Z][\w-]*)")
# Words after which a card title names an expansion, not the card ("the Voyager expansion").
_EXPANSION_WORDS = {"expansion", "expansions"}
_EXPANSION_LOOKAHEAD = 3
_SENTENCE_END = {".", "!", "?", ":", "“", '"', "("}


@dataclass
class DocumentReport:
    """What the import did with one document, for the printed summary."""

    document: Document
    read: int = 0
    written: int = 0
    marked_new: int = 0
    errata: int = 0
    title_only: list[str] = field(default_factory=list)
    resolved: int = 0
    unresolved: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    changed: bool = False
    # Entries that mention a card whose text the re-imported card lists changed: a moderator
    # should check each still reads right ((entry id, title, [changed card titles])).
    review: list[tuple[str, str, list[str]]] = field(default_factory=list)


def topic_id(edition: str, title: str) -> str:
    """The id of a topic: edition plus the title of the version that named it."""
    return f"{edition.lower()}-{slugify(title)[:60]}"


def topic_keys(title: str) -> list[str]:
    """Keys under which a title joins a topic: itself, and each half of "cannot / may not"."""
    keys = [normalize(title)]
    if "/" in title:
        keys += [normalize(half) for half in title.split("/") if normalize(half)]
    return keys


class _Topics:
    """Assigns topics per edition; official documents are processed first so they name them."""

    def __init__(self) -> None:
        self.by_key: dict[tuple[str, str], str] = {}
        self.titles: dict[str, str] = {}

    def assign(self, edition: str, title: str) -> str:
        keys = topic_keys(title)
        for key in keys:
            if (edition, key) in self.by_key:
                return self.by_key[(edition, key)]
        new_id = topic_id(edition, title)
        for key in keys:
            self.by_key.setdefault((edition, key), new_id)
        self.titles.setdefault(new_id, title)
        return new_id

    def find(self, edition: str, title: str) -> str | None:
        for key in topic_keys(title):
            if (edition, key) in self.by_key:
                return self.by_key[(edition, key)]
        return None


def _resolve_reference(topics: _Topics, edition: str, target: str) -> list[tuple[str, str | None]]:
    """A printed cross reference -> [(title, topic id or None)].

    "faction, playing Borg" is two references, but "attributes, ship" is one title: try the
    whole text first, then split on commas and re-join neighbours greedily.
    """
    whole = topics.find(edition, target)
    if whole or "," not in target:
        return [(target, whole)]
    split = _split_reference(topics, edition, target)
    return split if any(found for _, found in split) else [(target, None)]


def _split_reference(topics: _Topics, edition: str, target: str) -> list[tuple[str, str | None]]:
    parts = [p.strip() for p in _REFERENCE_BREAK.split(target) if p.strip()]
    out: list[tuple[str, str | None]] = []
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            candidate = ", ".join(parts[i:j])
            found = topics.find(edition, candidate)
            if found or j == i + 1:
                out.append((candidate, found))
                i = j
                break
    return out


class _MentionIndex:
    """Finds card names and rules terms inside ruling text by scanning word n-grams."""

    def __init__(self, cards: list[Card], terms: dict[str, str], texts: list[str] = ()):
        self.names = card_names(cards)  # normalised form -> card ids
        # A persona: a title only ever printed with a subtitle, shared by several versions
        # ("Worf" -> Worf, First Officer; Worf, Son of Mogh; ...). normalised title -> ids.
        self.personas: dict[str, list[str]] = defaultdict(list)
        whole_names = {normalize(card.name) for card in cards}
        for card in cards:
            title = normalize(card.title)
            if card.subtitle and title not in whole_names:
                self.personas[title].append(card.id)
        self.personas = {k: v for k, v in self.personas.items() if len(v) > 1}
        self.terms = terms  # normalised title -> topic id (multi-word terms only)
        # Words the documents also print in lower case: capitalised at a sentence start only
        # by position ("See Reunion", "(Both Bareil"), unlike "(Sherman's Planet)".
        self.common = {
            m.group(0) for text in texts for m in _TOKEN.finditer(text) if m.group(0)[:1].islower()
        }

    def scan(self, text: str, own_topic: str) -> list[dict[str, Any]]:
        plain = _ICON_ALT_TEXT.sub(r"[\1]", text.replace("*", ""))
        tokens = [m.group(0) for m in _TOKEN.finditer(plain)]
        found: list[dict[str, Any]] = []
        seen: set[str] = set()
        i = 0
        while i < len(tokens):
            hit = self._longest_at(tokens, i, own_topic)
            if not hit:
                i += 1
                continue
            length, mention = hit
            key = (mention.get("card_ids") or [None])[0] or mention.get("topic")
            identity = f"{mention['type']}:{mention['name'].casefold()}:{key}"
            if identity not in seen:
                seen.add(identity)
                found.append(mention)
            i += length
        self._narrow_personas(found)
        return found

    def _narrow_personas(self, found: list[dict[str, Any]]) -> None:
        """A persona named alone is one mention, not every version of it as if each were named.

        Its candidates are the versions the same text names in full ("your Worf, First
        Officer ... use Worf"); with none named, the persona is tagged without card ids.
        """
        named = [
            card_id
            for mention in found
            if mention["type"] == "card" and not mention.get("persona")
            for card_id in mention["card_ids"]
        ]
        for mention in found:
            if mention.get("persona"):
                versions = self.personas[normalize(mention["name"])]
                mention["card_ids"] = [v for v in dict.fromkeys(named) if v in versions]

    def _longest_at(self, tokens: list[str], i: int, own_topic: str):
        first = tokens[i]
        if not first[:1].isalnum():
            return None
        previous = tokens[i - 1] if i else ""
        sentence_start = (
            i == 0 or previous in {".", "!", "?", ":", "“", '"'} or previous.endswith(".")
        )
        for length in range(min(_MAX_NAME_WORDS, len(tokens) - i), 0, -1):
            words = tokens[i : i + length]
            closes = words[-1] == ")" and "(" in words
            if not words[-1][:1].isalnum() and words[-1] not in {"?", "!"} and not closes:
                continue
            if length == 1 and not self._stands_alone(tokens, i):
                continue
            printed = _join_tokens(words)
            key = normalize(printed)
            if not key:
                continue
            if (
                _starts_name(first)
                and key in self.names
                and self._plausible_name(words, sentence_start)
                and not self._continues(tokens, i + length)
            ):
                if key in self.personas:
                    return length, {
                        "type": "card",
                        "name": printed,
                        "persona": True,
                        "card_ids": [],
                    }
                return length, {"type": "card", "name": printed, "card_ids": self.names[key]}
            topic = self.terms.get(key)
            if topic and topic != own_topic:
                return length, {"type": "term", "name": printed, "topic": topic}
        return None

    def _stands_alone(self, tokens: list[str], i: int) -> bool:
        """A one-word card name inside a longer proper noun ("Deep Space Nine") is not one.

        A capitalised word before it counts unless it is a common word capitalised only by
        starting a sentence ("See Reunion", "(Both Bareil"); the word after it was checked
        by ``_continues``.
        """
        if i == 0:
            return True
        previous = tokens[i - 1]
        if not (previous[:1].isupper() and len(previous) > 1):
            return True
        return _sentence_starts_at(tokens, i - 1) and previous.lower() in self.common

    @staticmethod
    def _continues(tokens: list[str], end: int) -> bool:
        """The words after a card title continue a longer name or make it an expansion's:
        "Wolf 359", "Long-Range Scan Shielding", "the Voyager and later expansion sets"."""
        if end >= len(tokens) or _ends_sentence(tokens[end - 1]):
            return False
        after = tokens[end]
        if after[:1].isdigit() or (after[:1].isupper() and len(after) > 1):
            return True
        for word in tokens[end : end + _EXPANSION_LOOKAHEAD]:
            if not word[:1].islower():
                return False
            if word in _EXPANSION_WORDS:
                return True
        return False

    @staticmethod
    def _plausible_name(words: list[str], sentence_start: bool) -> bool:
        """Card names are capitalised; a lone common word at a sentence start is not one."""
        alnum = [w for w in words if w[:1].isalnum()]
        if any(
            not (w[:1].isupper() or w[:1].isdigit() or w.lower() in _NAME_CONNECTORS) for w in alnum
        ):
            return False
        if len(alnum) == 1 and (sentence_start or len(alnum[0]) < 3):
            return False
        return True


def _starts_name(token: str) -> bool:
    """Capitalised, or a digit-led name with letters ("0413-Theta"; not a bare number)."""
    return token[:1].isupper() or (token[:1].isdigit() and any(c.isalpha() for c in token))


def _ends_sentence(token: str) -> bool:
    """A sentence-final dot is part of the token: "Jovis." (not "U.S.S.")."""
    return token.endswith(".") and token.count(".") == 1 and len(token) > 1


def _sentence_starts_at(tokens: list[str], i: int) -> bool:
    if i == 0:
        return True
    previous = tokens[i - 1]
    return previous in _SENTENCE_END or _ends_sentence(previous)


def _trim_token(token: str) -> str:
    """Sentence-final dots are not part of a name; "U.S.S." keeps its dots."""
    if _ends_sentence(token.rsplit(" ", 1)[-1]):
        return token[:-1]
    return token


def _join_tokens(words: list[str]) -> str:
    """Tokens back to text as printed: "Kor (Noble Warrior to the End)", "Olarra"."""
    text = ""
    for word in words:
        spaced = word[:1].isalnum() or word in {"(", "“", "–", "-"}
        if text and not text.endswith(("(", "“")) and spaced:
            text += " "
        text += word
    return _trim_token(text)


def card_names(cards: list[Card]) -> dict[str, list[str]]:
    """Every normalised way of writing each card (see ``name_forms``) -> its card ids."""
    names: dict[str, list[str]] = defaultdict(list)
    for card in cards:
        for form in name_forms(card):
            key = normalize(form)
            if key and card.id not in names[key]:
                names[key].append(card.id)
    return dict(names)


def card_ruling_kind(title: str, kind: str, names: dict[str, list[str]]) -> str:
    """A rule entry titled with a card's name is that card's ruling."""
    if kind == KIND_RULE and normalize(title) in names:
        return KIND_CARD_RULING
    return kind


def _entry_id(document: Document, title: str, taken: set[str]) -> str:
    base = f"{document.id}:{slugify(title)[:60]}"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate


def _parse(document: Document, data_dir: Path, known_titles: frozenset[str]):
    path = data_dir / document.file
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SourceFormatError(str(path), None, "file not found") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SourceFormatError(str(path), line, "not UTF-8 text") from None
    text = plain_spaces(text)  # as an upload of the same page is read
    parser = get_parser(document.parser)
    if "known_titles" in inspect.signature(parser).parameters:
        return parser(text, str(path), known_titles=known_titles)
    return parser(text, str(path))


def build_entries(
    documents: list[Document],
    parsed: dict[str, list[ParsedEntry]],
    cards: list[Card],
    only: set[str] | None = None,
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, DocumentReport]]:
    """Turn parsed entries into the YAML records of every document (ids, topics, links);
    with ``only``, the records of those documents alone (the others still name topics)."""
    topics = _Topics()
    reports = {d.id: DocumentReport(d) for d in documents}
    ranked = sorted(documents, key=lambda d: d.precedence, reverse=True)
    topic_of: dict[tuple[str, int], str] = {}
    for document in ranked:
        for index, entry in enumerate(parsed[document.id]):
            topic_of[(document.id, index)] = topics.assign(document.edition, entry.title)

    mention_indexes: dict[str, _MentionIndex] = {}
    for edition in {d.edition for d in documents}:
        terms = {
            normalize(title): tid
            for tid, title in topics.titles.items()
            if tid.startswith(edition.lower() + "-") and len(normalize(title).split()) > 1
        }
        texts = [e.text for d in documents if d.edition == edition for e in parsed[d.id]]
        mention_indexes[edition] = _MentionIndex(
            [c for c in cards if c.edition == edition], terms, texts
        )

    records: dict[str, list[dict[str, Any]]] = {}
    for document in documents:
        if only is not None and document.id not in only:
            continue
        report = reports[document.id]
        taken: set[str] = set()
        out = []
        for index, entry in enumerate(parsed[document.id]):
            report.read += 1
            tid = topic_of[(document.id, index)]
            references = []
            for target in entry.see_also:
                for title, found in _resolve_reference(topics, document.edition, target):
                    references.append({"title": title, "topic": found})
                    if found:
                        report.resolved += 1
                    else:
                        report.unresolved.append(f"{entry.title} -> {title}")
            record: dict[str, Any] = {
                "id": _entry_id(document, entry.title, taken),
                "topic": tid,
                "title": entry.title,
                "edition": document.edition,
                "kind": entry.kind,
                "line": entry.line,
                "marked_new": entry.marked_new,
            }
            if entry.taken_from:
                record["taken_from"] = entry.taken_from
            if entry.amendments:
                record["amendments"] = [
                    {"action": a.action, "instruction": a.instruction} for a in entry.amendments
                ]
            if references:
                record["see_also"] = references
            mentions = mention_indexes[document.edition].scan(entry.text, tid) if entry.text else []
            if mentions:
                record["mentions"] = mentions
            record["text"] = entry.text
            out.append(record)
            report.written += 1
            report.marked_new += entry.marked_new
            report.errata += entry.kind == "erratum"
            if not entry.text:
                report.title_only.append(entry.title)
        records[document.id] = out
    return records, reports


def changed_cards(before: list[Card], after: list[Card]) -> dict[str, str]:
    """Card id -> title, for every card in both lists whose text or type changed."""
    old = {card.id: card for card in before}
    return {
        card.id: card.name
        for card in after
        if card.id in old and (old[card.id].text, old[card.id].type) != (card.text, card.type)
    }


def to_review(records: list[dict[str, Any]], changed: dict[str, str]) -> list[tuple]:
    """(entry id, title, [changed card titles]) of every record mentioning a changed card."""
    out = []
    for record in records:
        ids = [
            card_id
            for mention in record.get("mentions", [])
            if mention.get("type") == "card"
            for card_id in mention.get("card_ids", [])
            if card_id in changed
        ]
        if ids:
            out.append((record["id"], record["title"], sorted({changed[i] for i in ids})))
    return out


def run_import(data_dir: Path, cards_dir: Path | None = None) -> list[DocumentReport]:
    """Import every registered document (and, given ``cards_dir``, the Lackey card lists).

    Raises ``SourceFormatError`` or ``DataError`` before writing anything when any input is
    malformed.
    """
    documents = load_documents(data_dir)
    cards: list[Card] = []
    fresh_cards: dict[str, list[Card]] = {}
    if cards_dir is not None:
        # Read (not yet write) the card lists: nothing is written until everything parsed.
        for edition in ("1E", "2E"):
            fresh_cards[edition], card_warnings = read_lackey(cards_dir, edition)
            for warning in card_warnings:
                log.warning("%s cards: %s", edition, warning)
            cards.extend(fresh_cards[edition])
    else:
        for edition in ("1e", "2e"):
            path = data_dir / CARDS_DIR / f"{edition}.yaml"
            if path.exists():
                cards.extend(load_card_index(path))
    known = {
        ed: frozenset(normalize(c.title) for c in cards if c.edition == ed)
        | frozenset(normalize(c.name) for c in cards if c.edition == ed)
        for ed in ("1E", "2E")
    }
    parsed: dict[str, list[ParsedEntry]] = {}
    warnings: dict[str, list[str]] = {}
    sourced = [d for d in documents if d.parser]  # moderators' documents have no source file
    for document in sourced:
        try:
            result = _parse(document, data_dir, known[document.edition])
        except SourceFormatError as error:
            raise SourceFormatError(
                error.path,
                error.line,
                f"{error.reason} ({document.id}); nothing was written, the previous data stays "
                "in force",
            ) from None
        parsed[document.id] = result.entries
        warnings[document.id] = [f"line {w.line}: {w.message}" for w in result.warnings]
    records, reports = build_entries(sourced, parsed, cards)
    altered: dict[str, str] = {}  # the cards whose text or type changed since the rulings were read
    for edition, edition_cards in fresh_cards.items():
        path = data_dir / CARDS_DIR / f"{edition.lower()}.yaml"
        if path.exists():  # the card lists as the rulings were last read against
            altered.update(changed_cards(load_card_index(path), edition_cards))
        write_card_index(edition_cards, path)
    for document in sourced:
        reports[document.id].review = to_review(records[document.id], altered)
    changed: dict[str, str] = {}
    for document in sourced:
        report = reports[document.id]
        report.warnings = warnings[document.id]
        text = dump_yaml({"document": document.id, "entries": records[document.id]})
        path = entries_path(data_dir, document.id)
        report.changed = not path.exists() or path.read_text(encoding="utf-8") != text
        if report.changed:
            changed[path.name] = text
    if changed:  # all together: a kill leaves the old set or the new one, never a mixture
        replace_files_together(data_dir / ENTRIES_DIR, changed)
    return [reports[d.id] for d in sourced]


def print_report(reports: list[DocumentReport]) -> None:
    """The import summary: per document what was read, written and what needs a look."""
    for r in reports:
        d = r.document
        state = "updated" if r.changed else "unchanged"
        print(
            f"{d.id}: read {r.read}, written {r.written} ({state}), marked new {r.marked_new}, "
            f"errata {r.errata}, cross references resolved {r.resolved} / unresolved "
            f"{len(r.unresolved)}, warnings {len(r.warnings)}"
        )
        if r.title_only:
            print(f"  title only (text not in the source): {', '.join(r.title_only)}")
        for item in r.unresolved:
            print(f"  unresolved: {item}")
        for warning in r.warnings:
            print(f"  warning: {d.file} {warning}")
        for entry_id, title, cards in r.review:
            print(f"  review (card text changed: {', '.join(cards)}): {entry_id} {title!r}")
