"""Data files are code: every shipped YAML loads and every record has what the store needs.

Problems are collected and reported together, each naming its file and record.
"""

from pathlib import Path

import pytest
import yaml

from bot.ingest.dataset import load_documents
from bot.models import AMEND_ACTIONS, KINDS

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "rulings_data"
ENTRY_KEYS = {"id", "topic", "title", "edition", "kind", "line", "marked_new", "text"}


def _problems_in_entries() -> list[str]:
    problems = []
    documents = {d.id: d for d in load_documents(DATA)}
    seen_ids: set[str] = set()
    for path in sorted((DATA / "entries").glob("*.yaml")):
        name = path.relative_to(ROOT)
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            problems.append(f"{name}: not YAML: {exc}")
            continue
        document = documents.get(raw.get("document"))
        if document is None:
            problems.append(f"{name}: document {raw.get('document')!r} is not in documents.yaml")
            continue
        for n, entry in enumerate(raw.get("entries") or [], 1):
            where = f"{name} entry #{n} ({entry.get('title')!r})"
            missing = ENTRY_KEYS - set(entry)
            if missing:
                problems.append(f"{where}: missing {sorted(missing)}")
                continue
            if entry["id"] in seen_ids:
                problems.append(f"{where}: duplicate id {entry['id']}")
            seen_ids.add(entry["id"])
            if not entry["id"].startswith(document.id + ":"):
                problems.append(f"{where}: id {entry['id']} does not start with its document id")
            if entry["edition"] != document.edition:
                problems.append(
                    f"{where}: edition {entry['edition']} but the document is {document.edition}"
                )
            if not entry["topic"].startswith(document.edition.lower() + "-"):
                problems.append(f"{where}: topic {entry['topic']} is not edition-qualified")
            if entry["kind"] not in KINDS:
                problems.append(f"{where}: unknown kind {entry['kind']!r}")
            if len(entry["id"]) > 90:
                problems.append(f"{where}: id longer than 90 characters (Discord custom ids)")
            for amendment in entry.get("amendments", []):
                if amendment.get("action") not in AMEND_ACTIONS:
                    problems.append(f"{where}: unknown amendment {amendment.get('action')!r}")
            for reference in entry.get("see_also", []):
                if set(reference) != {"title", "topic"}:
                    problems.append(f"{where}: see_also item {reference} needs title and topic")
    return problems


def test_every_entry_file_is_well_formed():
    problems = _problems_in_entries()
    assert not problems, "\n".join(problems)


def test_every_alias_points_at_a_topic(rulings):
    raw = yaml.safe_load((DATA / "aliases.yaml").read_text(encoding="utf-8"))
    problems = []
    for n, alias in enumerate(raw["aliases"], 1):
        if (
            set(alias) - {"alias", "target", "note"}
            or not alias.get("alias")
            or not alias.get("target")
        ):
            problems.append(
                f"aliases.yaml #{n}: needs alias and target (and optionally note): {alias}"
            )
        elif (
            alias["target"] not in rulings.index.by_topic
            and alias["target"] not in rulings.index.by_entry
        ):
            problems.append(f"aliases.yaml #{n}: {alias['alias']!r} -> unknown {alias['target']!r}")
    assert not problems, "\n".join(problems)


def test_every_document_file_exists():
    for document in load_documents(DATA):
        assert (DATA / document.file).is_file(), document.file


def test_shipped_sources_are_unchanged_copies():
    shared = ROOT.parent / "shared" / "sources"
    if not shared.is_dir():
        pytest.skip("../shared is not beside this clone; nothing to compare with")
    # Only the documents themselves: shared/sources/examples/ holds importer test material,
    # not bundled data.
    documents = [path for path in sorted(shared.iterdir()) if path.is_file()]
    assert len(documents) >= 6  # five documents and their README
    for path in documents:
        assert (DATA / "sources" / path.name).read_bytes() == path.read_bytes(), path.name


def test_document_urls_are_addresses_or_null(tmp_path):
    from bot.ingest.dataset import DataError

    documents = {d.id: d for d in load_documents(DATA)}
    assert documents["1e-glossary-m"].url.startswith("http")
    assert documents["1e-crd-2014-11-03"].url is None  # no known address: null, not a guess
    registry = (DATA / "documents.yaml").read_text(encoding="utf-8")
    (tmp_path / "documents.yaml").write_text(
        registry.replace("url: null", "url: not a link", 1), encoding="utf-8"
    )
    with pytest.raises(DataError, match="url must be an http"):
        load_documents(tmp_path)
