"""The reader against real rules documents (tests/ingest/corpus/, each file's URL in its
README) and awkward copies of them: every expected entry is found with its exact text, every
cut-off entry is warned about, nothing unexpected becomes an entry (no silent misparse), and
a document the reader cannot read is refused with a message that says what to do."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import pytest
import yaml

from bot.ingest.reader import UnknownShape, UnreadableDocument, read_document
from tests.ingest.pdfmaker import assemble

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = yaml.safe_load((CORPUS / "expected.yaml").read_text(encoding="utf-8"))["files"]
READ = sorted(
    name
    for name, spec in EXPECTED.items()
    if not spec.get("refused") and not spec.get("misread_doubted")
)
REFUSED = sorted(name for name, spec in EXPECTED.items() if spec.get("refused"))
MISREAD = sorted(name for name, spec in EXPECTED.items() if spec.get("misread_doubted"))
_TAG = re.compile(r"<[^>]+>")


def _words(text: str) -> str:
    """The comparison rule of expected.yaml: tags removed, whitespace runs one space."""
    return " ".join(_TAG.sub("", text).split())


def _check(name: str, content: bytes) -> None:
    spec = EXPECTED[name]
    document = read_document(content, name)
    assert document.shape == spec["shape"], name
    found = [entry.title for entry in document.entries]
    # No silent misparse: exactly the expected entries, in order (nothing merged, split,
    # invented from navigation, or dropped).
    assert found == [e["title"] for e in spec["entries"]], name
    assert len(found) == spec["count"]
    warned = "\n".join(f"{w.line}: {w.message}" for w in document.warnings)
    if spec.get("doubted"):  # read right, but only a moderator can confirm where entries end
        assert any(w.doubt for w in document.warnings), (name, warned)
    for expected, entry in zip(spec["entries"], document.entries, strict=True):
        text = _words(entry.text)
        if expected.get("no_text"):
            assert text == "", (name, entry.title)
            continue
        assert text.startswith(expected["starts"]), (name, entry.title, text[:80])
        assert text.endswith(expected["ends"]), (name, entry.title, text[-80:])
        if "date" in expected:
            assert entry.date == str(expected["date"]), (name, entry.title)
        if expected.get("marked_new"):
            assert entry.marked_new, (name, entry.title)
        if expected.get("partial") and expected.get("warned", True):
            assert f"last entry {entry.title!r} ends mid-sentence" in warned, (name, warned)
    if "leading_fragment" in spec:  # an earlier page's entry: warned, and no entry of its own
        first_words = spec["leading_fragment"]["starts"].split()[0]
        assert re.search(rf"inside an entry .*{re.escape(first_words)}", warned), warned


@pytest.mark.parametrize("name", READ)
def test_real_document_is_read_exactly(name):
    _check(name, (CORPUS / name).read_bytes())


@pytest.mark.parametrize("name", REFUSED)
def test_unreadable_real_document_is_refused_with_what_to_do(name):
    with pytest.raises((UnknownShape, UnreadableDocument)) as info:
        read_document((CORPUS / name).read_bytes(), name)
    message = str(info.value)
    # Never an invented entry: the refusal says what the page looks like, and what to do.
    assert message.startswith(
        (
            f"{name}: this document is in no shape the reader knows",
            f"{name}: no entries found: this looks like ",
        )
    ), message[:120]
    assert "Accepted shapes:" in message
    assert "upload the page as it is published" in message.casefold()


@pytest.mark.parametrize("name", MISREAD)
def test_a_real_document_read_wrong_carries_a_doubt_that_blocks_applying(name):
    document = read_document((CORPUS / name).read_bytes(), name)
    expected = [(e["title"], e.get("starts", "")) for e in EXPECTED[name]["entries"]]
    read = [(e.title, _words(e.text)) for e in document.entries]
    assert not all(
        any(title == t and text.startswith(starts) for t, text in read)
        for title, starts in expected
    ) or len(read) != len(expected), "read right now: move it to the exactly read documents"
    assert any(w.doubt for w in document.warnings), name


def test_the_corpus_covers_fifteen_documents_in_six_shapes():
    assert len(READ) >= 15
    assert len({EXPECTED[name]["shape"] for name in READ}) >= 6
    listed = (CORPUS / "README.md").read_text(encoding="utf-8")
    for name in EXPECTED:
        assert re.search(rf"`{re.escape(name)}` \| [\w-]+ \| https?://", listed), name
    on_disk = {p.name for p in CORPUS.glob("*.txt")}
    assert on_disk == set(EXPECTED)  # no file without its expectations


# Awkward copies of real documents: the same entries must come out.
AWKWARD = {
    "crlf": lambda text: text.replace("\n", "\r\n").encode("utf-8"),
    "utf-8 bom": lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
    "utf-16": lambda text: text.encode("utf-16"),
    "cp1252": lambda text: text.encode("cp1252"),
}


@pytest.mark.parametrize("how", sorted(AWKWARD))
@pytest.mark.parametrize(
    "name",
    [
        "2e-rulings-feed-trekcc-2016-2017.txt",
        "1e-glossary-html-yumpu-p22.txt",  # curly quotes and apostrophes (D’deridex, “stopped”)
        "1e-faq-decipher-missions-klauser-faq10.txt",
    ],
)
def test_awkward_encodings_of_real_documents_read_the_same(name, how):
    text = (CORPUS / name).read_text(encoding="utf-8")
    _check(name, AWKWARD[how](text))


def test_cp1252_smart_quotes_are_named_and_kept():
    text = (CORPUS / "1e-glossary-html-yumpu-p22.txt").read_text(encoding="utf-8")
    document = read_document(text.encode("cp1252"), "p22.txt")
    assert document.encoding == "cp1252"
    assert "D’deridex Advanced" in [e.title for e in document.entries]
    assert "the “stopped” Away" in _words(document.entries[-1].text)


def test_real_feed_saved_as_an_html_page():
    text = (CORPUS / "2e-rulings-feed-trekcc-2016-2017.txt").read_text(encoding="utf-8")
    blocks = [block.strip() for block in text.split("\n\n") if block.strip()]
    page = "<html><head><title>Second Edition</title></head><body>\n"
    page += "\n".join("<p>" + block.replace("\n", "<br>\n") + "</p>" for block in blocks)
    page += "\n</body></html>"
    document = read_document(page.encode("utf-8"), "rulings.html")
    assert document.html and document.shape == "rulings-feed"
    plain = read_document(text.encode("utf-8"), "rulings.txt")
    assert [(e.title, e.date, _words(e.text)) for e in document.entries] == [
        (e.title, e.date, _words(e.text)) for e in plain.entries
    ]


def _pdf(lines: list[str]) -> bytes:
    """A one-page PDF (Helvetica, WinAnsi) printing ``lines``, written by hand: the smallest
    real PDF, so the test needs no PDF writer."""

    def escape(line: str) -> bytes:
        raw = line.encode("cp1252")
        return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")

    shown = b" ".join(b"(" + escape(line) + b") Tj T*" for line in lines)
    stream = b"BT /F1 9 Tf 11 TL 36 800 Td " + shown + b" ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    return assemble(objects)


def test_real_feed_as_a_pdf_reads_the_same():
    name = "2e-rulings-feed-trekcc-2016-2017.txt"
    text = (CORPUS / name).read_text(encoding="utf-8")
    document = read_document(_pdf(text.split("\n")), "rulings.pdf")
    assert document.encoding == "pdf"
    plain = read_document(text.encode("utf-8"), name)
    assert [(e.title, e.date, _words(e.text)) for e in document.entries] == [
        (e.title, e.date, _words(e.text)) for e in plain.entries
    ]
    assert any("ends mid-sentence" in w.message for w in document.warnings)


def test_a_pdf_without_text_is_refused_with_what_to_do():
    with pytest.raises(UnreadableDocument, match="no text layer .* upload the document's text"):
        read_document(_pdf([]), "scan.pdf")


def test_a_pdf_whose_text_is_glyph_numbers_is_refused_with_what_to_do():
    # a font drawn by its glyphs' numbers with no Unicode map (a PDF rewritten by a tool
    # that drops the map): its text is control characters, which was refused as "not a
    # page of the game's rules (0.0 % of its words the game's)"
    lines = ["".join(chr(1 + (row * 7 + k) % 8) for k in range(40)) for row in range(30)]
    with pytest.raises(UnreadableDocument, match="glyph numbers, not letters .* Upload the"):
        read_document(_pdf(lines), "crd.pdf")
