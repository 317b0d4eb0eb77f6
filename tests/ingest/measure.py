"""How the reader does on a folder of real pages and their expected entries.

    .venv/bin/python -m tests.ingest.measure [--name-listed] tests/ingest/heldout [more folders]

Per page: the entries found with the right title (and text that starts as expected), the
entries invented from a page that holds no ruling, and wrong reads that pass without a doubt
that blocks ``--apply``. Reads in process (no worker): the figures, not the isolation, matter.

``--name-listed`` also takes a moderator's second step on each refused page that holds
rulings, as the drafted corrections offer it (:mod:`bot.answers.drafts`): the lines its
refusal lists as opening like an entry are named heads under the titles listed
(``{line: N, head: Title}``) and the page read again, once with every listed line named and
once with only those a moderator would choose (the lines listed under a title the page's
expectations hold); the entries so found are counted apart, never in the first read's
figures.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

from bot.ingest.reader import UnknownShape, UnreadableDocument, read_document

_TAG = re.compile(r"<[^>]+>")


def _words(text: str) -> str:
    return " ".join(_TAG.sub("", text).split())


def _key(title: str) -> str:
    return " ".join(title.replace("’", "'").split()).casefold()


def judged(document, expected: list[dict]) -> tuple[int, int, bool, bool]:
    """(entries found, entries invented, wrong read, doubted) of a ``document`` read from a
    page whose ``expected`` entries are these (none: a page that holds no ruling)."""
    # Each entry read matches one expected entry at most: a page may hold two entries of
    # one title (a Current Rulings update lists "assimilation" among its changes and again
    # among its rulings).
    unread = [(_key(e.title), _words(e.text)) for e in document.entries]
    found = 0
    for want in expected:
        # an entry whose page never prints its title (`title_lost`) may name the card it
        # is about (`card`): read under that card's name, it is found
        title = _key(want["title"] or want.get("card", ""))
        starts = _words(want.get("starts", ""))
        match = next((r for r in unread if r[0] == title and r[1].startswith(starts)), None)
        if match is not None:
            unread.remove(match)
            found += 1
    invented = 0 if expected else len(document.entries)
    wrong = bool(invented) or not found == len(expected) == len(document.entries)
    return found, invented, wrong, any(getattr(w, "doubt", False) for w in document.warnings)


def named_listed(
    content: bytes, name: str, heads: list[tuple[int, str]], expected: list[dict]
) -> tuple[int, int]:
    """(entries found, entries found naming only the right lines) when the listed ``heads``
    are named heads under their listed titles and the page read again (0 where none is
    listed, or the page is refused again)."""
    titles = {_key(want["title"]) for want in expected if want["title"]}
    chosen = [(line, title) for line, title in heads if _key(title) in titles]
    found = []
    for named in (heads, chosen):
        try:
            document = read_document(content, name, heads=dict(named)) if named else None
        except (UnknownShape, UnreadableDocument):
            document = None
        found.append(judged(document, expected)[0] if document else 0)
    return found[0], found[1]


def measure(folder: Path, name_listed: bool = False) -> dict[str, int]:
    """Totals for one folder (and one line per page on stdout); with ``name_listed``, also
    the entries a refused page's listed lines give when named (:func:`named_listed`)."""
    totals = dict(expected=0, found=0, pages_without=0, invented=0, wrong=0, wrong_undoubted=0)
    totals.update(refused_expected=0, named_found=0, chosen_found=0)
    if not (folder / "expected.yaml").exists():
        print(f"{folder}: no expected.yaml, not a set of pages: skipped")
        return totals
    spec = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))["files"]
    for name, want in sorted(spec.items()):
        content = (folder / name).read_bytes()
        try:
            document = read_document(content, name)
        except (UnknownShape, UnreadableDocument) as error:
            document, refusal, heads = None, str(error), getattr(error, "heads", [])
        expected = want.get("entries", [])
        totals["expected"] += len(expected)
        if not expected:  # a page that holds no ruling
            totals["pages_without"] += 1
        if document is None:
            print(f"{name}: refused ({refusal.splitlines()[0][len(name) + 2 :][:90]})")
            if name_listed and expected:
                found, chosen = named_listed(content, name, heads, expected)
                totals["refused_expected"] += len(expected)
                totals["named_found"] += found
                totals["chosen_found"] += chosen
                print(
                    f"    named its {len(heads)} listed line(s): {found}/{len(expected)} found; "
                    f"the right ones only: {chosen}"
                )
            continue
        found, invented, wrong, doubted = judged(document, expected)
        right = not wrong
        totals["found"] += found
        totals["invented"] += invented
        totals["wrong"] += not right
        totals["wrong_undoubted"] += not right and not doubted
        titles = ", ".join(repr(e.title) for e in document.entries[:6])
        flag = "ok" if right else ("WRONG, doubted" if doubted else "WRONG, NOT DOUBTED")
        print(
            f"{name}: {flag}; {found}/{len(expected)} found; read {len(document.entries)} "
            f"as {document.shape}: {titles}"
        )
    return totals


def main(argv: list[str]) -> int:
    name_listed = "--name-listed" in argv
    folders = [arg for arg in argv if arg != "--name-listed"] or ["tests/ingest/heldout"]
    named = chosen = refused = 0
    for folder in folders:
        t = measure(Path(folder), name_listed)
        print(
            f"== {folder}: {t['found']}/{t['expected']} expected entries found with the right "
            f"title; {t['invented']} entries invented from {t['pages_without']} pages without "
            f"rulings; {t['wrong']} wrong reads, {t['wrong_undoubted']} without a blocking doubt"
        )
        named, refused = named + t["named_found"], refused + t["refused_expected"]
        chosen += t["chosen_found"]
    if name_listed:
        print(
            f"== refused pages that hold rulings, their listed lines named as heads: "
            f"{named}/{refused} of their entries found; naming only the lines a moderator "
            f"would choose: {chosen}/{refused}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
