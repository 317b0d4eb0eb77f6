"""Whether the real pages read the same printed to PDF by a browser, as a moderator may
save the committee's page before uploading it.

    .venv/bin/python -m tests.ingest.print_check [FOLDER ...] [--out DIR] [--all]

Every text page that holds rulings (by default in all of ``tests/ingest``; with ``--all``
the pages that hold none too) is laid out as
a web page (each paragraph a ``<p>``, its lines kept with ``<br>``), printed by headless
Chromium (Debian's ``chromium``) with its own date, title and address at the top and foot
of each page, and the PDF read. Per page set: the entries found (as
``tests/ingest/measure.py`` counts them) from the text and from its print, the wrong reads
and those without a blocking doubt, the entries invented from pages without rulings; then
each page its print reads worse. With ``--as-text``, each print's text as ``pdftotext``
(poppler-utils) copies it is read too, as a ``.txt`` upload: the ``copied`` row. The prints are
kept in ``--out`` (default ``/tmp/print-check``) and made again only where missing. Not
part of the suite: it needs Chromium and takes minutes.
"""

from __future__ import annotations

import argparse
import html
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from bot.ingest.reader import UnknownShape, UnreadableDocument, read_document
from tests.ingest.measure import judged

HERE = Path(__file__).parent


def page_html(text: str, title: str) -> str:
    """``text`` as a web page: a ``<p>`` for each paragraph, its lines kept."""
    blocks = [block for block in text.replace("\r", "").split("\n\n") if block.strip()]
    body = "\n".join(
        "<p>"
        + "<br>".join(html.escape(line) for line in block.split("\n") if line.strip())
        + "</p>"
        for block in blocks
    )
    style = "body{font-family:sans-serif;font-size:10pt;max-width:720px;margin:auto}"
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}'
        f"</title><style>{style}</style></head><body>{body}</body></html>"
    )


def _printed(source: Path, out: Path, browser: str) -> Path:
    stem = f"{source.parent.name}__{source.stem}"
    pdf = out / f"{stem}.pdf"
    if not pdf.exists():
        page = out / f"{stem}.html"
        page.write_text(page_html(source.read_text(errors="replace"), source.name))
        subprocess.run(
            [browser, "--headless", "--no-sandbox", f"--print-to-pdf={pdf}", page.as_uri()],
            capture_output=True,
            timeout=120,
            check=False,
        )
    return pdf


def _copied(pdf: Path) -> bytes:
    """The print's text as ``pdftotext`` (poppler) extracts it: what a moderator who
    copies the PDF's text rather than the PDF uploads (page breaks, no paragraph gaps)."""
    run = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, timeout=120)
    return run.stdout


def _judged(
    path: Path, expected: list[dict], content: bytes | None = None
) -> tuple[int, int, bool, bool]:
    """(entries found, entries invented, wrong read, wrong read without a blocking doubt);
    a refusal is a wrong read only of a page that holds rulings."""
    try:
        document = read_document(path.read_bytes() if content is None else content, path.name)
    except (UnknownShape, UnreadableDocument):
        return 0, 0, bool(expected), False
    found, invented, wrong, doubted = judged(document, expected)
    return found, invented, wrong, wrong and not doubted


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, default=Path("/tmp/print-check"))
    parser.add_argument("--all", action="store_true", help="also the pages without rulings")
    parser.add_argument(
        "--as-text",
        action="store_true",
        help="also read each print's text as pdftotext copies it (a .txt upload)",
    )
    args = parser.parse_args(argv)
    if args.as_text and shutil.which("pdftotext") is None:
        print("print_check: no pdftotext on this machine (apt-get install poppler-utils)")
        return 2
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("print_check: no chromium on this machine (apt-get install chromium)")
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    folders = args.folders or sorted(p for p in HERE.iterdir() if (p / "expected.yaml").exists())
    totals = {"text": [0, 0, 0, 0], "print": [0, 0, 0, 0]}
    if args.as_text:
        totals["copied"] = [0, 0, 0, 0]
    expected_total = 0
    worse: list[str] = []
    for folder in folders:
        spec = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))["files"]
        for name, want in sorted(spec.items()):
            expected = want.get("entries", [])
            if not name.endswith(".txt") or not (expected or args.all):
                continue
            expected_total += len(expected)
            source = folder / name
            pdf = _printed(source, args.out, browser)
            text, printed = _judged(source, expected), _judged(pdf, expected)
            reads = [("text", text), ("print", printed)]
            if args.as_text:
                reads.append(("copied", _judged(source, expected, _copied(pdf))))
            for key, figures in reads:
                totals[key] = [a + b for a, b in zip(totals[key], figures, strict=True)]
            if printed[0] < text[0] or printed[1] > text[1] or printed[3] and not text[3]:
                worse.append(
                    f"  {folder.name}/{name}: found {text[0]} -> {printed[0]}, invented "
                    f"{text[1]} -> {printed[1]}, undoubted {text[3]} -> {printed[3]}"
                )
    for key, (found, invented, wrong, undoubted) in totals.items():
        print(
            f"{key:<6} {found}/{expected_total} entries found; {invented} invented; "
            f"{wrong} wrong reads, {undoubted} without a blocking doubt"
        )
    print(f"pages whose print reads worse than their text: {len(worse)}", *worse, sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
