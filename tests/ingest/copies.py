"""Whether a real page reads the same however a moderator's tools copied it.

    .venv/bin/python -m tests.ingest.copies [FOLDER ...] [--copies crlf,indented,...]

Every text page of the folders (by default all of ``tests/ingest``) with its expectations is
copied the ways editors, browsers and mail programs copy text (and with its expected titles
in bold, as Markdown pages and chat pastes print them), and each copy is read; the
expected titles and first words are copied the same way before they are compared. Per copy
habit: the entries found (as ``tests/ingest/measure.py`` counts them), the wrong reads and
those without a blocking doubt, the entries invented from pages without rulings, and the
pages whose figures differ from the page as saved. HTML and Markdown pages are left out: a
tag or a Markdown indent means something, whitespace in them does not copy as in text.
"""

from __future__ import annotations

import argparse
import functools
import html
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import yaml

from bot.ingest.reader import UnknownShape, UnreadableDocument, read_text
from tests.ingest.measure import judged

HERE = Path(__file__).parent


def _with_titles(habit: Callable[[str, list[dict]], str], expected: list[dict], text: str) -> str:
    return habit(text, expected)


def _same(text: str) -> str:
    return text


def _indented(text: str) -> str:
    return "\n".join("    " + line if line.strip() else line for line in text.split("\n"))


def _no_blank_lines(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if line.strip())


def _mail_wrapped(text: str) -> str:
    """Each line longer than 72 characters wrapped at spaces, as a mail program sends text."""
    return "\n".join(
        "\n".join(textwrap.wrap(line, 72, break_on_hyphens=False, break_long_words=False))
        if len(line) > 72
        else line
        for line in text.split("\n")
    )


# What a web clipper or a converter escapes when it saves a page as Markdown: the marks
# Markdown reads anywhere, and those it reads at a line's start (a list's bullet or number,
# a heading's or a quote's mark).
_CLIPPER_ANYWHERE = re.compile(r"([\\*_`\[\]])")
_CLIPPER_LINE_START = re.compile(r"^(\d+)\. |^([-+#>=])", re.M)


def _clipped_as_markdown(text: str) -> str:
    """The page saved as Markdown by a web clipper: each mark meant as a character escaped
    with a backslash ("\\* assimilation", "1\\. The ship is destroyed.", "\\[Bor\\]")."""
    text = _CLIPPER_ANYWHERE.sub(r"\\\1", text)
    return _CLIPPER_LINE_START.sub(lambda m: f"{m[1]}\\. " if m[1] else f"\\{m[2]}", text)


def _typeset(text: str, width: int = 72) -> str:
    """Each line longer than ``width`` wrapped as a typesetter sets it and a PDF viewer copies
    it: a long lower-case word that does not fit is broken with a hyphen ("determi-" over
    "ned condition"), three letters at least on either side."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        row = ""
        for word in line.split(" "):
            if not row or len(row) + 1 + len(word) <= width:
                row = f"{row} {word}" if row else word
                continue
            room = width - len(row) - 2  # a space and the hyphen
            if len(word) >= 8 and word.isalpha() and word.islower() and 3 <= room <= len(word) - 3:
                out.append(f"{row} {word[:room]}-")
                row = word[room:]
            else:
                out.append(row)
                row = word
        out.append(row)
    return "\n".join(out)


def _viewer_copied(text: str) -> str:
    """The page printed and copied back out of a PDF viewer: each line wrapped at 90
    characters and no blank line left between paragraphs (a viewer copies each printed
    line and no paragraph's gap)."""
    return _no_blank_lines(
        "\n".join(
            "\n".join(textwrap.wrap(line, 90, break_on_hyphens=False, break_long_words=False))
            if len(line) > 90
            else line
            for line in text.split("\n")
        )
    )


def _saved_as_html(text: str) -> str:
    """The page as a browser's "Save as" of a plain page keeps it: a paragraph a ``<p>``,
    its lines joined by ``<br>``, the text escaped."""
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    body = "".join(
        "<p>" + "<br>\n".join(html.escape(line) for line in p.split("\n")) + "</p>\n"
        for p in paragraphs
    )
    return f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{body}</body></html>"


def _bold_titles(text: str, expected: list[dict]) -> str:
    """Each expected title where it opens a line, in bold as a Markdown page, a forum post
    or a chat paste prints it ("**Dead End**", "**Brilgar** – …")."""
    return _titles_printed(text, expected, lambda title: f"**{title}**")


def _capital_titles(text: str, expected: list[dict]) -> str:
    """Each expected title where it opens a line, in capitals as Decipher printed them."""
    return _titles_printed(text, expected, str.upper)


def _title_case_titles(text: str, expected: list[dict]) -> str:
    """Each expected title where it opens a line, each word capitalised as a wiki's page
    title prints a Glossary term ("Actions – Group")."""
    return _titles_printed(
        text, expected, lambda title: " ".join(w[:1].upper() + w[1:] for w in title.split(" "))
    )


def _heading_titles(text: str, expected: list[dict]) -> str:
    """Each expected title that stands alone on its line as a Markdown heading ("### Dead
    End"), as a web clipper saves a page whose titles are headings."""
    alone = [want for want in expected if f"\n{want['title'].strip()}\n" in f"\n{text}\n"]
    return _titles_printed(text, alone, lambda title: f"### {title}")


def _titles_printed(text: str, expected: list[dict], printed: Callable[[str], str]) -> str:
    """``text`` with each expected title, where it first opens a line, as ``printed``."""
    lines = text.split("\n")
    taken: set[int] = set()
    for want in expected:
        title = want["title"]
        for number, line in enumerate(lines):
            bare = line.lstrip()
            # A head: the title alone, or before its colon or dash. Not the title opening a
            # sentence of the ruling ("Colony was put on ..."), which no copy prints as a head.
            rest = bare[len(title) :].lstrip(" \t")[:1]
            if (
                number not in taken
                and title
                and bare.startswith(title)
                and bare[len(title) : len(title) + 1] in ("", *" :–-—\t")
                and rest in ("", *":–-—")
            ):
                margin = line[: len(line) - len(bare)]
                lines[number] = f"{margin}{printed(title)}{bare[len(title) :]}"
                taken.add(number)
                break
    return "\n".join(lines)


def _mojibake(char: str) -> str:
    """``char``'s UTF-8 as the Windows Western code page spells it ("â€“" for "–")."""
    raw = char.encode("utf-8")
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


_LONG_WORD = re.compile(r"\b([A-Za-z]{4})([a-z]{4,})")

COPIES: dict[str, Callable[[str], str]] = {
    "crlf": lambda t: t.replace("\n", "\r\n"),  # saved on Windows
    "trailing-spaces": lambda t: t.replace("\n", "  \n"),
    "indented": _indented,  # a mail quote or a block the whole copy sits in
    "no-break-spaces": lambda t: t.replace(" – ", "\u00a0– ").replace(": ", ":\u00a0"),
    "all-no-break-spaces": lambda t: t.replace(" ", "\u00a0"),  # "&nbsp;" between all words
    "straight-quotes": lambda t: t.translate(str.maketrans("’‘“”–", "''\"\"-")),
    "no-blank-lines": _no_blank_lines,  # paragraphs a line each, as some forums copy
    "tabbed-dashes": lambda t: t.replace(" – ", "\t– "),  # a word processor's tab stop
    # a dash as plain text types it (FAQ files, mail)
    "double-hyphens": lambda t: t.replace(" – ", " -- ").replace(" — ", " -- "),
    "em-dashes": lambda t: t.replace(" – ", " — "),  # another typesetter's dash
    "close-em-dashes": lambda t: t.replace(" – ", "—"),  # as American print sets one
    "saved-as-html": _saved_as_html,
    "mail-wrapped": _mail_wrapped,
    "clipped-as-markdown": _clipped_as_markdown,  # a web clipper's escapes
    "pdf-typeset": _typeset,  # copied out of a PDF viewer: long words broken with a hyphen
    "viewer-copied": _viewer_copied,  # wrapped, with no paragraph's gap
    # a blank line after every line: line endings converted twice, a viewer's copy
    "double-spaced": lambda t: t.replace("\n", "\n\n"),
    # invisible marks: a hyphenating page's soft hyphens in long words, zero-width spaces
    "soft-hyphens": lambda t: _LONG_WORD.sub(lambda m: f"{m[1]}\u00ad{m[2]}", t),
    "zero-width-spaces": lambda t: t.replace(" ", "\u200b "),
    # line breaks other tools write: a word processor's, Unicode's line separator
    "vertical-tabs": lambda t: t.replace("\n", "\x0b"),
    "line-separators": lambda t: t.replace("\n", "\u2028"),
    "black-bullets": lambda t: t.replace("\n• ", "\n\u25cf "),  # a word processor's
    "mojibake": lambda t: "".join(map(_mojibake, t)),  # UTF-8 read as Windows' code page
    # Windows' dashes and quotes read as Latin-1: C1 controls
    "c1-controls": lambda t: t.translate({0x2013: 0x96, 0x2014: 0x97, 0x2019: 0x92}),
    # character references left in the text (an RSS feed's, a page's source copied)
    "entities": lambda t: t.replace("–", "&ndash;").replace("’", "&rsquo;"),
    "minus-signs": lambda t: t.replace(" – ", " \u2212 "),  # a typesetter's rarer dash
    # a forum post's quote of the page, as the forum's Quote button writes it in BBCode
    "forum-quoted": lambda t: f'[quote="Rules Manager"]{t}[/quote]',
}
# copy habits that print the page's titles their own way: they are told where the titles are
HEADS: dict[str, Callable[[str, list[dict]], str]] = {
    "bold-titles": _bold_titles,
    "html-bold-titles": lambda t, e: _titles_printed(t, e, lambda title: f"<b>{title}</b>"),
    "capital-titles": _capital_titles,
    "title-case-titles": _title_case_titles,
    # titles as links: a web clipper's Markdown of a glossary whose terms are anchors, and a
    # forum post that links each card's page in BBCode
    "linked-titles": lambda t, e: _titles_printed(t, e, lambda title: f"[{title}](#{len(title)})"),
    "heading-titles": _heading_titles,
    # titles as a list's items, as a moderator types a list or a clipper saves one
    "bulleted-titles": lambda t, e: _titles_printed(t, e, lambda title: f"- {title}"),
    "star-bulleted-titles": lambda t, e: _titles_printed(t, e, lambda title: f"* {title}"),
    "bbcode-linked-titles": lambda t, e: _titles_printed(
        t, e, lambda title: f"[url=https://www.trekcc.org/1e/?q={len(title)}]{title}[/url]"
    ),
}
# what a copy habit does to the expected titles and first words (HTML is read as text)
_EXPECTED_AS = {
    "saved-as-html": _same,
    "clipped-as-markdown": _same,  # the page's characters, unescaped
    "pdf-typeset": _same,  # the page's words, whole
    "viewer-copied": _same,
    "soft-hyphens": _same,  # the page's words, as they read
    "zero-width-spaces": _same,
    "vertical-tabs": _same,
    "line-separators": _same,
    "mojibake": _same,
    "c1-controls": _same,
    "entities": _same,
    "minus-signs": lambda t: t.replace(" – ", " - "),  # read as the dash typed
    "bold-titles": _same,
    "html-bold-titles": _same,
    "capital-titles": _same,
    "title-case-titles": _same,
    "forum-quoted": _same,  # the page's words, without the forum's tags
    "linked-titles": _same,
    "bbcode-linked-titles": _same,
    "heading-titles": _same,
    "bulleted-titles": _same,
    "star-bulleted-titles": _same,
}


def _figures(
    text: str,
    name: str,
    expected: list[dict],
    copy: Callable[[str], str],
    as_copied: Callable[[str], str],
) -> tuple:
    """(found, wrong, wrong and undoubted, invented) for one page read as ``copy`` makes it;
    ``as_copied`` is what the copy does to the expected titles and first words."""
    try:
        document = read_text(copy(text), filename=name)
    except (UnknownShape, UnreadableDocument):
        return 0, False, False, 0  # refused: measure.py counts no wrong read
    copied = [
        {
            "title": as_copied(want["title"]),
            "starts": as_copied(want.get("starts", "")),
            # an entry whose page never prints its title is found under the card it names
            "card": as_copied(want.get("card", "")),
        }
        for want in expected
    ]
    found, invented, wrong, doubted = judged(document, copied)
    return found, wrong, wrong and not doubted, invented


def pages(folders: list[Path]):
    """(folder, file name, text, expected entries) of every text page with expectations."""
    for folder in folders:
        spec = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))["files"]
        for name, want in sorted(spec.items()):
            if not name.endswith(".txt"):
                continue
            try:
                text = (folder / name).read_bytes().decode("utf-8-sig")
            except UnicodeDecodeError:
                continue
            if text.lstrip().startswith("<"):
                continue  # an HTML page saved with a .txt name
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            yield folder, name, text, want.get("entries", [])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--copies", default=",".join([*COPIES, *HEADS]))
    args = parser.parse_args(argv)
    folders = args.folders or sorted(p.parent for p in HERE.glob("*/expected.yaml"))
    chosen = {name: COPIES.get(name) or HEADS[name] for name in args.copies.split(",")}
    totals = {name: [0, 0, 0, 0] for name in ["as saved", *chosen]}
    changed: dict[str, list[str]] = {name: [] for name in chosen}
    for folder, name, text, expected in pages(folders):
        saved = _figures(text, name, expected, _same, _same)
        totals["as saved"] = [a + b for a, b in zip(totals["as saved"], saved, strict=True)]
        for habit, copy in chosen.items():
            if habit in HEADS:
                copy = functools.partial(_with_titles, HEADS[habit], expected)
            got = _figures(text, name, expected, copy, _EXPECTED_AS.get(habit, copy))
            totals[habit] = [a + b for a, b in zip(totals[habit], got, strict=True)]
            if got != saved:
                changed[habit].append(
                    f"{folder.name}/{name}: found {saved[0]} -> {got[0]}, undoubted wrong "
                    f"{saved[2]} -> {got[2]}, invented {saved[3]} -> {got[3]}"
                )
    for habit, (found, wrong, undoubted, invented) in totals.items():
        differ = f"; {len(changed[habit])} pages read otherwise" if habit in changed else ""
        print(
            f"{habit:16} {found} entries found; {wrong} wrong reads, {undoubted} without a "
            f"blocking doubt; {invented} invented{differ}"
        )
    for habit, lines in changed.items():
        for line in lines:
            print(f"  {habit}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
