"""Real documents collected with their URLs (tests/ingest/corpus/: files, README.md with the
sources, expected.yaml). Each file must be read as its expected shape, with every expected
entry found: title, date, and text starting and ending as printed. An entry marked
``partial`` (the copy is cut off) must be warned about instead of ending as printed.

expected.yaml: ``files: {NAME: {shape, edition, count, entries: [{title, date, starts, ends,
partial}]}}``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.ingest.reader import read_document

CORPUS = Path(__file__).resolve().parent / "corpus"
EXPECTED = CORPUS / "expected.yaml"


def _cases():
    if not EXPECTED.is_file():
        return []
    files = (yaml.safe_load(EXPECTED.read_text(encoding="utf-8")) or {}).get("files") or {}
    return sorted(files.items())


CASES = _cases()


@pytest.mark.skipif(not CASES, reason="no corpus collected yet (tests/ingest/corpus/)")
@pytest.mark.parametrize(
    ("name", "expected"), CASES or [("-", {})], ids=[n for n, _ in CASES] or ["-"]
)
def test_corpus_file_is_read_as_expected(name, expected):
    document = read_document((CORPUS / name).read_bytes(), name)
    assert document.shape == expected["shape"], [w.message for w in document.warnings][:5]
    if expected.get("edition") and document.metadata.edition:
        assert document.metadata.edition == expected["edition"]
    if expected.get("count") is not None:
        assert len(document.entries) == expected["count"], [e.title for e in document.entries]
    by_title: dict[str, list] = {}
    for entry in document.entries:
        by_title.setdefault(entry.title, []).append(entry)
    warned = " ".join(w.message for w in document.warnings)
    for want in expected.get("entries") or []:
        title = str(want["title"])
        assert title in by_title, f"{title!r} not read; read: {list(by_title)[:20]}"
        candidates = by_title[title]
        if want.get("date"):
            candidates = [e for e in candidates if e.date == str(want["date"])]
            assert candidates, f"{title!r}: no entry dated {want['date']}"
        if want.get("starts"):
            candidates = [e for e in candidates if e.text.startswith(str(want["starts"]).strip())]
            assert candidates, f"{title!r} does not start with {want['starts']!r}"
        if want.get("partial"):
            assert title in warned and "partial" in warned, f"{title!r} cut off but not warned"
        elif want.get("ends"):
            ends = str(want["ends"]).strip()
            assert any(e.text.rstrip().endswith(ends) for e in candidates), (
                f"{title!r} does not end with {ends!r}: {candidates[0].text[-80:]!r}"
            )
