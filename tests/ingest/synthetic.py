"""How the reader does on synthetic pages made of real rules text, in the page shapes real
sites publish, to find where it fails in general rather than on one page.

    .venv/bin/python -m tests.ingest.synthetic [--examples N]

The entries are the shipped ones (``rulings_data/entries``: their printed titles and texts).
Each page lays a window of a document's entries out as one site prints them, starting with
the tail of the entry before the window, and is cut at 2000 characters as the page store
does. Shapes:

- ``A-flipbook``: a flip-book Glossary page (yumpu): the site's chrome, then lines wrapped
  at 30-40 characters, each ending ``<br />`` and followed by a blank line; ``Title – text``.
- ``B-pdf-text``: Glossary / Current Rulings text copied from a PDF: ``title – text``
  paragraphs, lines wrapped at 70-100 characters.
- ``B2-pdf-run-on``: the same with the line ends lost, as real copies often are (the 2007
  2E Current Rulings on scribd, the 2010 1E one on docslib): the page is one line.
- ``C-opencards``: an openCards glossary letter page as a browser renders it: header words,
  the letter index, ``back to top of page xx`` lines, each title on its own line.
- ``D-wiki``: a fan-wiki glossary entry: one ``Title – text`` entry, perhaps with wiki chrome.
- ``E-decipher``: a Decipher-era Current Rulings page: the site's menu, the heading, then
  ``TITLE - text`` entries, new ones marked ``*``.

With ``--html``, each page of the shapes B to E is also saved as HTML inside one of three
made site templates (a fan wiki's, a card database's, the committee's site's: navigation,
sidebar, cookie notice, share bar, footer) and read again: the shape is then named, e.g.,
``C-opencards+wiki-html``. A saved page must read as its text does.

Two knowledge modes: ``known`` (as is) and ``new-titles`` (the reader does not know the
page's own entry titles, as for a new document: they are withheld from
``bot.ingest.reader.known`` for the read). A page is read right when every entry whose title
and first words are on the page is found (title and text start as ``tests/ingest/measure.py``
counts them) and nothing else is read; an entry whose head the cut reaches is tolerated
either way. Wrong reads without a doubt (``ParseWarning.doubt``) are the dangerous ones.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import html
import itertools
import random
import re
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from bot.ingest.reader import UnknownShape, UnreadableDocument, general, known, read_text

ENTRIES = Path(__file__).resolve().parents[2] / "rulings_data" / "entries"
PAGE_CHARS = 2000  # what the page store keeps of a page
STARTS_WORDS = 6  # the words of an entry's text that its read text must start with
SEED = 38
MODES = ("known", "new-titles")

_TAG = re.compile(r"<[^>]+>")
# A text that stops inside a sentence was cut at a source page's break when the data was
# gathered ("Major Rakal – This personnel retains her"): a real page prints the whole entry.
_BROKEN = re.compile(r"[a-z,]\s*$")
_ITEM = re.compile(r"\n(?=[ \t]*(?:[-•]|\d{1,2}\.|[a-z]\.)[ \t])")  # a list item's line
_EMPHASIS = re.compile(
    r"\*{1,2}(\S[^*]{0,200}?)\*{1,2}"
)  # markdown italics and bold of the stored text


def _words(text: str) -> str:
    return " ".join(_TAG.sub("", text).split())


def _key(title: str) -> str:
    return " ".join(title.replace("’", "'").split()).casefold()


@dataclass(frozen=True)
class Entry:
    title: str
    text: str  # as printed: markdown emphasis removed, paragraphs split by blank lines
    new: bool

    def paragraphs(self) -> list[str]:
        """The text's paragraphs, each on one line; a list's items stay items."""
        parts = (p for block in self.text.split("\n\n") for p in _ITEM.split(block))
        return [" ".join(p.split()) for p in parts if p.strip()]

    def starts(self) -> str:
        return " ".join(_words(self.text).split()[:STARTS_WORDS])


@dataclass
class Page:
    shape: str
    document: str
    first: int  # index of the window's first entry in the document
    text: str
    expected: list[tuple[str, str]]  # (title, text start) of the entries the page holds
    tolerated: list[str]  # titles the cut reaches inside their head
    titles: list[str]  # every entry title printed on the page (withheld in new-titles mode)


@functools.lru_cache(maxsize=1)
def documents() -> dict[str, list[Entry]]:
    """The shipped documents' entries that have a whole text, in document order."""
    found = {}
    for path in sorted(ENTRIES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found[data["document"]] = [
            Entry(e["title"], _EMPHASIS.sub(r"\1", e["text"]).strip(), bool(e.get("marked_new")))
            for e in data["entries"]
            if (e.get("text") or "").strip() and not _BROKEN.search(e["text"])
        ]
    return found


# --- page shapes: each lays out entries as blocks; a block is (entry or None, text) --------


def _wrap(paragraph: str, width: int) -> list[str]:
    return textwrap.wrap(paragraph, width, break_long_words=False, break_on_hyphens=False)


_YUMPU_CHROME = (
    "15.12.2012 Views\n\n"
    + "Star Trek™ Customizable Card Game™ GLOSSARY\n\n" * 3
    + "SHOW MORE\nSHOW LESS\n\n"
)
_YUMPU_ADS = (
    "You also want an ePaper? Increase the reach of your titles\n\n"
    "YUMPU automatically turns print PDFs into web optimized ePapers that Google loves.\n\n",
    "Create successful ePaper yourself\n\n"
    "Turn your PDF publications into a flip-book with our unique Google optimized e-Paper "
    "software.\n\n",
)


def _flipbook(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    width = state.setdefault("width", rng.randint(30, 40))
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is not None:
        paragraphs[0] = f"{entry.title} – {paragraphs[0]}"
    lines = [line for p in paragraphs for line in _wrap(p, width)]
    return "".join(f"{line}<br />\n\n" for line in lines)


def _pdf_text(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    width = state.setdefault("width", rng.randint(70, 100))
    gap = state.setdefault("gap", rng.choice(("\n", "\n\n")))
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is not None:
        paragraphs[0] = f"{entry.title} – {paragraphs[0]}"
    return "".join("\n".join(_wrap(p, width)) + gap for p in paragraphs)


def _pdf_run_on(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """Text copied from a PDF whose line ends were lost: one line, entries run together."""
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is not None:
        paragraphs[0] = f"{entry.title} – {paragraphs[0]}"
    return "".join(f"{p} " for p in paragraphs)


_OPENCARDS_HEAD = (
    "header\nheaderhomehomehomestrategyrulescardsheader\n     \ncards\n   \n\n"
    "Rulebook Glossary - {letter}\n\nRulebook Glossary\n\n \n\n"
    "A - B - C - D - E - F - G - H - I - J - K - L - M - N - O - P - Q - R - S - T - U - V - "
    "W - X - Y - Z - top\n\n \n\n{pairs}\n\n \n\n"
)


def _opencards(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    body = "\n\n".join(paragraphs) + "\n\n \n\n"
    if entry is None:
        return body
    pair = _pair(entry.title)
    head = ""
    if pair != state.get("pair"):
        state["pair"] = pair
        head = f"back to top of page {pair}\n\n"
    title = entry.title + (" (updated by Current Rulings)" if entry.new else "")
    return f"{head}{title}\n{body}"


def _pair(title: str) -> str:
    letters = [c for c in title.casefold() if c.isalpha()]
    return "".join(letters[:2]) or "zz"


_WIKI_CHROME = (
    "",
    "Star Trek CCG 1E Wiki\nExplore\nMain Page\nAll Pages\nCommunity\n\n",
    "Skip to content\n\nStar Trek CCG 1E Wiki\n\nin: Glossary\n\n{title}\nEdit\n\n",
)


def _wiki(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    if entry is None:
        return ""
    paragraphs = _cut(entry.paragraphs(), words)
    paragraphs[0] = f"{entry.title} – {paragraphs[0]}"
    return "\n\n".join(paragraphs) + "\n\n"


_DECIPHER_CHROME = (
    "decipher.comhelphome\nabout decipher art show tournaments message boards\n"
    "The Eccentric Order Party Zone Star Trek CCG Star Wars CCG Young Jedi Star Trek CCG\n \n\n"
    "what is it?\n\ncard lists\n\n>>rules and\ncurrent rulings<<\n\n\nstrategy articles\n\n"
    "deck designs\n\ntournaments\n\nmessage boards\n\nfun stuff\n\nwhere to buy\n\n\n\n\n\n"
    "DECIPHER.com > star trek ccg > rules and current rulings\n\n\n"
    "ABC\n\nDEF\n\nGHI\n\nJKL\n\nMNO\n\nPQR\n\nST\n\nUVW\n\nXYZ\n\nmain\n\nRULINGS\n\n",
    "Star Trek CCG what is it. card lists rules strategy where to buy star trek fun message "
    "boards tournaments\n\n\n\n\n\nRulings Updated: 03/26/01\n\n"
    "INTRODUCTION | CHANGES & CLARIFICATIONS | RULINGS A-G | RULINGS H-Z\n\n"
    "*The new Current Rulings are available in print-quality PDF and easy to print TXT "
    "formats.\n\nRULINGS\n\n",
)


def _decipher(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    upper = state.setdefault("upper", rng.random() < 0.5)
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is not None:
        title = entry.title.upper() if upper else entry.title
        paragraphs[0] = f"{'*' if entry.new else ''}{title} - {paragraphs[0]}"
    return "\n\n".join(paragraphs) + "\n\n"


_MARKDOWN_CHROME = (
    "",
    "# Rules Glossary\n\n",
    "# Current Rulings\n\n[Home](index.md) | [Rules](rules.md) | [Cards](cards.md)\n\n",
)


def _markdown(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """A page saved as Markdown (a wiki's or a repository's): each title a heading of its
    own, at one level for the page."""
    level = state.setdefault("level", rng.choice(("##", "###", "####")))
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    head = f"{level} {entry.title}\n\n" if entry is not None else ""
    return head + "\n\n".join(paragraphs) + "\n\n"


def _colon(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """``Title: text`` paragraphs (an FAQ's or a fan site's glossary), hard-wrapped or not."""
    width = state.setdefault("width", rng.choice((0, 72, 90)))
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is not None:
        paragraphs[0] = f"{entry.title}: {paragraphs[0]}"
    if not width:
        return "\n\n".join(paragraphs) + "\n\n"
    return "\n\n".join("\n".join(_wrap(p, width)) for p in paragraphs) + "\n\n"


def _heading_lines(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """Each title a line of its own over its text, as a page copied from a browser prints a
    heading (no letter index, no anchors, no marks)."""
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    head = f"{entry.title}\n\n" if entry is not None else ""
    return head + "\n\n".join(paragraphs) + "\n\n"


def _numbered(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """Numbered entries ("12. Title – text" or "12) Title: text"), as a fan's or a
    tournament's rules list prints them."""
    form = state.setdefault("form", rng.choice(("{n}. {t} – {x}", "{n}) {t}: {x}")))
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is not None:
        state["n"] = state.get("n", rng.randint(1, 40)) + 1
        paragraphs[0] = form.format(n=state["n"], t=entry.title, x=paragraphs[0])
    return "\n\n".join(paragraphs) + "\n\n"


def _table(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """A two-column table as a browser copies it: the term, a tab, its text (a glossary
    set in an HTML table)."""
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is None:
        return " ".join(paragraphs) + "\n"
    return f"{entry.title}\t{' '.join(paragraphs)}\n"


def _typed(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """``Title – text`` as other hands type it: an em dash, a hyphen, a double hyphen or a
    no-break space before the dash; Windows line ends; no blank line between entries."""
    dash = state.setdefault("dash", rng.choice((" — ", " - ", " -- ", "\u00a0– ", " –\u00a0")))
    end = state.setdefault("end", rng.choice(("\n", "\r\n")))
    gap = state.setdefault("gap", rng.choice((end, end * 2)))
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is not None:
        paragraphs[0] = f"{entry.title}{dash}{paragraphs[0]}"
    return gap.join(paragraphs) + gap


_COMMITTEE_MENU = (
    "What's New Dashboard Articles Forums Chat Room Card Database Rules Tournaments\n",
    "Second Edition\nRulings\n",
    "Second Edition\nRulingsPrint Rulings\n",
    "",
)


def _single_ruling(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """One ruling on its own page, as a browser copies the committee's: the site's menu
    lines, the title, the text, and perhaps the cards it applies to."""
    if entry is None:
        return ""
    paragraphs = _cut(entry.paragraphs(), words)
    cards = rng.choice(("", "\nApplicable Cards: Q-Flash; Red Alert!;\n"))
    return f"{entry.title}\n\n\n" + "\n\n".join(paragraphs) + "\n" + cards


def _bold_run_in(entry: Entry | None, rng: random.Random, state: dict, words: int | None) -> str:
    """A title run into its text with no separator, as a page sets it in bold ("<b>matching
    commander</b> A personnel is …"): as text, where the title ends is lost; saved as HTML
    (below), the bold shows it."""
    paragraphs = _cut(entry.paragraphs(), words) if entry else state["tail"]
    if entry is not None:
        paragraphs[0] = f"{entry.title} {paragraphs[0]}"
    return "\n\n".join(paragraphs) + "\n\n"


_SITES = {
    "wiki-html": (
        "<!DOCTYPE html><html><head><title>{title} | CCG Wiki</title><style>.x{{}}</style>"
        "<script>var page = 1;</script></head><body>"
        '<div class="global-nav"><a>Games</a> <a>Movies</a> <a>Wikis</a> <a>Start a Wiki</a></div>'
        '<div id="cookie-consent">This site uses cookies. <button>Accept</button></div>'
        "<header><nav><ul><li>Explore</li><li>Main Page</li><li>All Pages</li><li>Community</li>"
        '</ul></nav></header><main class="page-main"><div class="page-header">in: Glossary, Rules'
        '<h1>{title}</h1></div><div>{body}</div><div class="page-footer">Categories: Glossary'
        ' Rules</div></main><aside class="right-rail"><h2>Popular pages</h2><ul><li>Borg Queen'
        "</li><li>Premiere</li></ul><h2>Fan Feed</h2><ul><li>1 Dilemmas</li><li>2 Affiliations</li>"
        "</ul></aside><footer><h2>Follow Us</h2><ul><li>About</li><li>Careers</li><li>Terms of Use"
        "</li></ul><p>Content is available under CC-BY-SA.</p></footer></body></html>"
    ),
    "card-db-html": (
        "<html><head><title>{title} - card database</title></head><body><table><tr><td "
        'class="header">header</td></tr><tr><td class="menu"><a>home</a> <a>strategy</a> '
        '<a>rules</a> <a>cards</a></td></tr></table><div id="sidebar"><ul><li>Login</li><li>'
        'Card search</li><li>Deck builder</li></ul></div><div id="content"><h1>{title}</h1>'
        '{body}</div><div id="footer">Not affiliated with the rights holders. | Impressum | '
        "Contact</div></body></html>"
    ),
    "committee-html": (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} | The '
        'Committee</title></head><body><nav class="navbar"><ul><li>What\'s New</li><li>'
        "Dashboard</li><li>Articles</li><li>Forums</li><li>Card Database</li><li>Rules</li>"
        '</ul></nav><div class="container"><ol class="breadcrumb"><li>Home</li><li>Rules</li>'
        '<li>{title}</li></ol><h2>{title}</h2>{body}</div><div class="share">Share: Facebook '
        "Twitter Email</div><footer><p>All related marks are trademarks of their owners. © "
        "The Committee</p><p>Privacy · Terms · Contact us</p></footer></body></html>"
    ),
}
HTML_SHAPES = (
    "B-pdf-text",
    "C-opencards",
    "D-wiki",
    "E-decipher",
    "G-colon",
    "H-heading-lines",
    "J-table-copied",
    "M-bold-run-in",
)


def saved_as_html(page: Page, site: str) -> Page:
    """``page`` as a browser saves it from ``site``: a title line of its own becomes a
    heading, a ``Title – text`` head bold, each block a paragraph, its lines ``<br>``."""
    # the longest title first: "missions attempt" before "missions" (and no set's order,
    # which changes from run to run)
    titles = sorted(set(page.titles), key=lambda t: (-len(t), t))
    body = []
    if page.shape == "J-table-copied":  # the table itself: a row of two cells per term
        rows = [line.split("\t", 1) for line in page.text.split("\n") if line.strip()]
        cells = [r if len(r) == 2 else ["", r[0]] for r in rows]
        body.append(
            "<table>"
            + "".join(
                f"<tr><td>{html.escape(a)}</td><td>{html.escape(b)}</td></tr>" for a, b in cells
            )
            + "</table>"
        )
    for block in page.text.split("\n\n") if not body else []:
        lines = [html.escape(line.strip()) for line in block.split("\n") if line.strip()]
        if len(lines) == 1 and html.unescape(lines[0]) in titles:
            body.append(f"<h3>{lines[0]}</h3>")
        elif lines:
            inner = "<br>\n".join(lines)
            head = next(
                (
                    t
                    for t in titles
                    if inner.startswith((html.escape(t) + " – ", html.escape(t) + ": "))
                    or page.shape == "M-bold-run-in"
                    and inner.startswith(html.escape(t) + " ")
                ),
                None,
            )
            if head:
                inner = f"<b>{html.escape(head)}</b>{inner[len(html.escape(head)) :]}"
            body.append(f"<p>{inner}</p>")
    text = _SITES[site].format(title="Rules", body="\n".join(body))
    return dataclasses.replace(page, shape=f"{page.shape}+{site}", text=text)


def html_pages(text_pages: list[Page], every_site: bool = True) -> Iterator[Page]:
    """The pages of :data:`HTML_SHAPES` saved as HTML: in every site's template, or each in
    one (in turn), as the suite reads them."""
    sites = list(_SITES)
    chosen = [p for p in text_pages if p.shape in HTML_SHAPES]
    for index, page in enumerate(chosen):
        for site in sites if every_site else [sites[index % len(sites)]]:
            yield saved_as_html(page, site)


def _cut(paragraphs: list[str], words: int | None) -> list[str]:
    """The paragraphs up to the first ``words`` words of the text (all of them: None)."""
    if words is None:
        return paragraphs
    kept, left = [], words
    for paragraph in paragraphs:
        split = paragraph.split()
        kept.append(" ".join(split[:left]))
        left -= len(split)
        if left <= 0:
            break
    return kept


SHAPES = {
    "A-flipbook": (_flipbook, ("1e-glossary-m", "1e-crd-2014-11-03")),
    "B-pdf-text": (_pdf_text, None),
    "B2-pdf-run-on": (_pdf_run_on, None),
    "C-opencards": (_opencards, None),
    "D-wiki": (_wiki, None),
    "E-decipher": (_decipher, ("1e-glossary-m", "1e-crd-2014-11-03")),
    "F-markdown": (_markdown, None),
    "G-colon": (_colon, None),
    "H-heading-lines": (_heading_lines, None),
    "I-numbered": (_numbered, None),
    "J-table-copied": (_table, None),
    "K-typed": (_typed, None),
    "L-single-ruling": (_single_ruling, None),
    "M-bold-run-in": (_bold_run_in, None),
}


def _chrome(shape: str, rng: random.Random, entries: list[Entry], document: list[Entry]) -> str:
    if shape == "A-flipbook":
        return _YUMPU_CHROME + rng.choice(_YUMPU_ADS)
    if shape == "C-opencards":
        letter = entries[0].title.lstrip("'\"*")[:1].upper() or "A"
        # The index of the letter's pages: every pair of first letters the document has.
        same = [
            e for d in documents().values() for e in d if _pair(e.title)[:1] == letter.casefold()
        ]
        pairs = " - ".join(sorted(set(_pair(e.title) for e in same)))
        return _OPENCARDS_HEAD.format(letter=letter, pairs=pairs)
    if shape == "D-wiki":
        return rng.choice(_WIKI_CHROME).format(title=entries[0].title)
    if shape == "E-decipher":
        return rng.choice(_DECIPHER_CHROME)
    if shape == "F-markdown":
        return rng.choice(_MARKDOWN_CHROME)
    if shape == "L-single-ruling":
        return rng.choice(_COMMITTEE_MENU)
    return ""


def make_page(shape: str, name: str, entries: list[Entry], first: int, seed: int) -> Page:
    """One page of ``shape``: the tail of entry ``first - 1``, then entries from ``first``."""
    rng = random.Random(seed)
    render = SHAPES[shape][0]
    alone = shape in ("D-wiki", "L-single-ruling")  # a page of one entry
    window = entries[first : first + 1] if alone else entries[first:]
    if shape == "C-opencards":  # a letter page holds its letter's entries only
        letter = _pair(entries[first].title)[:1]
        window = list(itertools.takewhile(lambda e: _pair(e.title)[:1] == letter, window))
    state: dict = {}
    text = _chrome(shape, rng, window, entries)
    # A page starts inside the entry before the window (a letter page of openCards and a
    # wiki entry start at their own top).
    if first > 0 and shape not in ("C-opencards", "D-wiki", "L-single-ruling"):
        words = entries[first - 1].text.split()
        tail = " ".join(words[-rng.randint(5, min(40, max(5, len(words)))) :])
        state["tail"] = [tail[:1].lower() + tail[1:]]
        text += render(None, rng, state, None)
    expected, tolerated, titles = [], [], []
    for entry in window:
        if len(text) >= PAGE_CHARS:
            break
        pair = state.get("pair")
        head = len(text) + len(render(entry, rng, state, STARTS_WORDS))
        state["pair"] = pair  # the head was a trial: the block below prints the same lines
        titles.append(entry.title)
        if head <= PAGE_CHARS:
            expected.append((entry.title, entry.starts()))
        else:
            tolerated.append(entry.title)
        text += render(entry, rng, state, None)
    return Page(shape, name, first, text[:PAGE_CHARS], expected, tolerated, titles)


def pages(per_document: int = 12, shapes: tuple[str, ...] = tuple(SHAPES)) -> Iterator[Page]:
    """Pages of ``shapes``, windows at entries chosen by a seeded random draw."""
    docs = documents()
    for shape in shapes:
        names = SHAPES[shape][1]
        for name in names or sorted(docs):
            entries = docs[name]
            rng = random.Random(f"{SEED}:{shape}:{name}")
            count = min(per_document, len(entries))
            for first in sorted(rng.sample(range(len(entries)), count)):
                yield make_page(shape, name, entries, first, rng.randrange(1 << 30))


# --- reading and judging --------------------------------------------------------------------


@functools.cache
def _known_by_first_word() -> tuple[
    frozenset[str], dict[str, list[tuple[str, int]]], dict[str, int]
]:
    """Every known title's key; the keys (with their number of words) by first word; and
    for each first word the most words a key starting with it has."""
    every = known._known(str(known.default_data_dir()))
    by_first: dict[str, list[tuple[str, int]]] = {}
    for k in every:
        words = k.split()
        by_first.setdefault(words[0], []).append((k, len(words)))
    most = {first: max(n for _, n in found) for first, found in by_first.items()}
    return every, by_first, most


@contextlib.contextmanager
def titles_unknown(titles: list[str]) -> Iterator[None]:
    """The reader's knowledge of titles without ``titles`` (a new document's new titles):
    ``known`` looks its tables up through ``_known`` and ``_starts`` at each call."""
    withheld = {known.key(t) for t in titles} | {known.key(t.upper()) for t in titles}
    every, by_first, most = _known_by_first_word()
    keys = every - withheld
    # The most words a known key starting with each word has, counted again only for the
    # first words of the titles withheld (a word no key starts with any more is 0, unknown).
    starts = dict(most)
    for first in {k.split()[0] for k in withheld if k}:
        starts[first] = max((n for k, n in by_first.get(first, ()) if k not in withheld), default=0)
    saved = known._known, known._starts
    known._known = lambda data_dir: keys
    known._starts = lambda data_dir: starts
    general.forget_analysis()  # heads found with the titles known must not be reused
    try:
        yield
    finally:
        known._known, known._starts = saved
        general.forget_analysis()


@dataclass
class Verdict:
    page: Page
    mode: str
    refused: str | None = None
    found: int = 0
    invented: list[str] = field(default_factory=list)
    misread: list[str] = field(default_factory=list)  # found by title, text starts elsewhere
    missed: list[str] = field(default_factory=list)
    read: list[tuple[str, str]] = field(default_factory=list)
    doubts: list[str] = field(default_factory=list)

    @property
    def right(self) -> bool:
        return self.refused is None and not self.invented and not self.missed

    @property
    def undoubted(self) -> bool:
        return not self.right and self.refused is None and not self.doubts


def judge(page: Page, mode: str) -> Verdict:
    """Read ``page`` in ``mode`` and compare with what it holds."""
    verdict = Verdict(page, mode)
    withheld = titles_unknown(page.titles) if mode == "new-titles" else contextlib.nullcontext()
    try:
        with withheld:
            document = read_text(page.text, filename="page.txt")
    except (UnknownShape, UnreadableDocument) as error:
        verdict.refused = str(error).split("\n")[0][len("page.txt: ") :]
        verdict.missed = [t for t, _ in page.expected]
        return verdict
    verdict.read = [(e.title, _words(e.text)) for e in document.entries]
    verdict.doubts = [w.message for w in document.warnings if getattr(w, "doubt", False)]
    unread = [(_key(t), text) for t, text in verdict.read]
    for title, starts in page.expected:
        match = next((r for r in unread if r[0] == _key(title) and r[1].startswith(starts)), None)
        if match is None:
            verdict.missed.append(title)
        else:
            unread.remove(match)
            verdict.found += 1
    # A read of a missed entry's title whose text starts elsewhere is that entry misread
    # (its head or its first lines misplaced); any other read is invented.
    missed = [_key(t) for t in verdict.missed]
    for title, _ in unread:
        if title in missed:
            missed.remove(title)
            verdict.misread.append(title)
    tolerated = {_key(t) for t in page.tolerated} | set(verdict.misread)
    verdict.invented = [t for t, _ in unread if t not in tolerated]
    return verdict


def measure(all_pages: list[Page]) -> list[Verdict]:
    return [judge(page, mode) for mode in MODES for page in all_pages]


def table(verdicts: list[Verdict]) -> str:
    head = (
        f"{'shape':<28} {'mode':<10} {'pages':>5} {'expected':>8} {'found':>6} {'misread':>7} {'invented':>8} "
        f"{'refused':>7} {'wrong':>6} {'undoubted':>9}"
    )
    rows = [head, "-" * len(head)]
    groups: dict[tuple[str, str], list[Verdict]] = {}
    for v in verdicts:
        groups.setdefault((v.page.shape, v.mode), []).append(v)
    for (shape, mode), group in sorted(groups.items()):
        expected = sum(len(v.page.expected) for v in group)
        found = sum(v.found for v in group)
        rows.append(
            f"{shape:<28} {mode:<10} {len(group):>5} {expected:>8} "
            f"{found:>6} {sum(len(v.misread) for v in group):>7} "
            f"{sum(len(v.invented) for v in group):>8} "
            f"{sum(v.refused is not None for v in group):>7} "
            f"{sum(not v.right for v in group):>6} {sum(v.undoubted for v in group):>9}"
        )
    return "\n".join(rows)


def describe(v: Verdict) -> str:
    where = f"{v.page.shape}/{v.mode} {v.page.document}@{v.page.first}"
    if v.refused:
        return f"  {where}: REFUSED ({v.refused[:110]})"
    doubt = f"doubt: {v.doubts[0][:100]!r}" if v.doubts else "NO DOUBT"
    want = [t for t, _ in v.page.expected]
    got = [t for t, _ in v.read]
    return (
        f"  {where}: {doubt}\n    expected {want}\n    read     {got}\n"
        f"    missed {v.missed}; misread {v.misread}; invented {v.invented}"
    )


def failure_class(v: Verdict) -> str:
    if v.refused:
        return "refused"
    if not v.read:
        return "nothing read"
    parts = []
    if v.misread:
        parts.append("misread")
    if len(v.missed) > len(v.misread):
        parts.append("missed")
    if v.invented:
        parts.append("invented")
    return "+".join(parts) + (", doubted" if v.doubts else ", NOT doubted")


def _seeds(seeds: list[int], with_html: bool) -> int:
    """The figures over the windows of ``seeds``: every shape together, then the shapes
    where a wrong read passed undoubted."""
    global SEED
    drawn, verdicts = SEED, []
    try:
        for seed in seeds:
            SEED = seed
            made = list(pages())
            verdicts += measure(made)
            if with_html:
                verdicts += [judge(p, "new-titles") for p in html_pages(made, every_site=False)]
    finally:
        SEED = drawn
    expected = sum(len(v.page.expected) for v in verdicts)
    found = sum(v.found for v in verdicts)
    invented = sum(len(v.invented) for v in verdicts)
    undoubted = Counter(v.page.shape for v in verdicts if v.undoubted)
    print(
        f"seeds {' '.join(map(str, seeds))}: {len(verdicts)} reads; {found}/{expected} "
        f"entries found; {invented} invented; {sum(undoubted.values())} wrong reads "
        "without a blocking doubt"
    )
    for shape, n in sorted(undoubted.items()):
        print(f"  {shape}: {n} undoubted")
    return 0


def second_step(page: Page, mode: str) -> tuple[int, int, int] | None:
    """A moderator's second step on ``page`` read in ``mode``, if it is refused: the lines its
    refusal lists under a title the page holds are named heads under those titles (as the
    drafted corrections offer them) and the page read again. (lines so named, entries
    found, other entries read); None when the page is not refused."""
    withheld = titles_unknown(page.titles) if mode == "new-titles" else contextlib.nullcontext()
    with withheld:
        try:
            read_text(page.text, filename="page.txt")
            return None
        except (UnknownShape, UnreadableDocument) as error:
            heads = getattr(error, "heads", [])
        keys = {_key(title) for title, _ in page.expected}
        chosen = {line: title for line, title in heads if _key(title) in keys}
        if not chosen:
            return 0, 0, 0
        try:
            document = read_text(page.text, filename="page.txt", heads=chosen)
        except (UnknownShape, UnreadableDocument):
            return len(chosen), 0, 0
    unread = [(_key(e.title), _words(e.text)) for e in document.entries]
    found = 0
    for title, starts in page.expected:
        match = next((r for r in unread if r[0] == _key(title) and r[1].startswith(starts)), None)
        if match is not None:
            unread.remove(match)
            found += 1
    return len(chosen), found, len(unread)


def _second_steps(seeds: list[int]) -> int:
    """The second step's figures over the windows of ``seeds``, the HTML copies included."""
    global SEED
    drawn = SEED
    refused = expected = named = found = others = 0
    try:
        for seed in seeds:
            SEED = seed
            made = list(pages())
            read = [(p, m) for m in MODES for p in made]
            read += [(p, "new-titles") for p in html_pages(made, every_site=False)]
            for page, mode in read:
                if (step := second_step(page, mode)) is not None:
                    refused += 1
                    expected += len(page.expected)
                    named, found, others = named + step[0], found + step[1], others + step[2]
    finally:
        SEED = drawn
    print(
        f"seeds {' '.join(map(str, seeds))}: {refused} pages refused, holding {expected} "
        f"entries; {named} listed lines named; {found}/{expected} entries found; {others} "
        "other entries read"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5, help="failures shown per shape")
    parser.add_argument("--show", help="print the pages of this shape/mode's failures")
    parser.add_argument("--html", action="store_true", help="also read the pages saved as HTML")
    parser.add_argument(
        "--seeds",
        type=int,
        nargs="+",
        help="draw the windows with these seeds instead (the test suite reads seed "
        f"{SEED}); the HTML copies go one to a site in turn",
    )
    parser.add_argument(
        "--second-step",
        action="store_true",
        help="with --seeds: on the refused pages, name the listed lines a moderator would "
        "choose and read them again (the HTML copies included)",
    )
    args = parser.parse_args(argv)
    if args.seeds and args.second_step:
        return _second_steps(args.seeds)
    if args.seeds:
        return _seeds(args.seeds, args.html)
    made = list(pages())
    verdicts = measure(made + (list(html_pages(made)) if args.html else []))
    print(table(verdicts))
    print("\nfailure classes:")
    classes = Counter((v.page.shape, v.mode, failure_class(v)) for v in verdicts if not v.right)
    for (shape, mode, kind), n in sorted(classes.items()):
        print(f"  {shape:<28} {mode:<10} {kind:<28} {n}")
    for shape in dict.fromkeys(v.page.shape for v in verdicts):
        failed = [v for v in verdicts if v.page.shape == shape and not v.right]
        failed.sort(key=lambda v: (not v.undoubted, v.mode))
        if failed and args.examples:
            print(f"\n{shape}: {len(failed)} failures, first {min(args.examples, len(failed))}")
            for v in failed[: args.examples]:
                print(describe(v))
                if args.show and args.show in (shape, f"{shape}/{v.mode}"):
                    print("    ---- page ----\n" + textwrap.indent(v.page.text, "    | "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
