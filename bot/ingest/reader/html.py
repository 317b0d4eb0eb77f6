"""A saved HTML page to text, before shape detection (detected from the content).

Uses Beautiful Soup with Python's own ``html.parser`` (no compiled dependency): it is
tolerant of the broken markup old rules pages have. ``<br>`` becomes a line break, block
elements become paragraphs, and each table row becomes one ``| cell | cell |`` line (a line
break inside a cell is written ``<br>``, as Markdown tables do).
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, NavigableString, PageElement, Tag

# Structural tags only: a Markdown table may hold "<br>" and still be no HTML page.
_LOOKS_HTML = re.compile(r"<(?:html|head|body|p|div|table|tr|td|h[1-6]|ul|li)\b", re.I)
_BLOCKS = (
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "table", "section",
    "article", "blockquote", "pre", "header", "footer", "nav", "dl", "dt", "dd", "hr", "main",
)  # fmt: skip
_DROP = ("script", "style", "noscript", "template", "head")


def looks_like_html(text: str) -> bool:
    head = text[:8192].lstrip().lower()
    if head.startswith(("<!doctype html", "<html")):
        return True
    return len(_LOOKS_HTML.findall(text[:8192])) >= 3


def page_title(text: str) -> str | None:
    soup = BeautifulSoup(text[:20000], "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    return title or None


def to_text(text: str) -> str:
    """The page's visible text, one paragraph per block, blank lines between them."""
    soup = BeautifulSoup(text, "html.parser")
    raw = _walk(soup, "\n", "\n\n", table_rows=True)
    lines = [line.strip() for line in raw.split("\n")]
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
    return out.strip("\n") + "\n"


def _walk(root: Tag, br: str, block: str, table_rows: bool) -> str:
    """Text of ``root`` in document order, without changing the tree (inserting into a
    large tree is quadratic). Iterative, so deep nesting cannot exhaust the stack."""
    out: list[str] = []
    stack: list[tuple[PageElement | str, bool]] = [(root, False)]
    while stack:
        node, in_pre = stack.pop()
        if isinstance(node, str) and not isinstance(node, NavigableString):
            out.append(node)  # a marker pushed below
        elif isinstance(node, NavigableString):
            if type(node) is NavigableString:  # not a comment, doctype or CDATA
                out.append(str(node) if in_pre else re.sub(r"\s+", " ", str(node)))
        elif isinstance(node, Tag):
            name = node.name
            if name in _DROP:
                continue
            if name == "br":
                out.append(br)
            elif name == "tr" and table_rows:
                cells = [_cell_text(c) for c in node.find_all(("td", "th"), recursive=False)]
                out.append("\n| " + " | ".join(cells) + " |\n")
            else:
                pre = in_pre or name == "pre"
                children = list(node.children)
                if name in _BLOCKS:
                    stack.append((block, pre))
                stack.extend((child, pre) for child in reversed(children))
                if name in _BLOCKS:
                    stack.append((block, pre))
    return "".join(out)


def _cell_text(cell: Tag) -> str:
    text = _walk(cell, "<br>", "<br><br>", table_rows=False)
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s*<br>\s*", "<br>", text)
    text = re.sub(r"^(?:<br>)+|(?:<br>)+$", "", text)
    return text.replace("|", "/")
