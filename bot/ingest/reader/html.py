"""A saved HTML page to text, before shape detection (detected from the content).

Uses Beautiful Soup with Python's own ``html.parser`` (no compiled dependency): it is
tolerant of the broken markup old rules pages have. ``<br>`` becomes a line break, block
elements become paragraphs, and each table row becomes one ``| cell | cell |`` line (a line
break inside a cell is written ``<br>``, as Markdown tables do).
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, NavigableString, Tag

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
    for tag in soup.find_all(_DROP):
        tag.decompose()
    for node in soup.find_all(string=True):
        if not any(parent.name == "pre" for parent in node.parents if isinstance(parent, Tag)):
            node.replace_with(re.sub(r"\s+", " ", str(node)))
    for row in soup.find_all("tr"):
        cells = [_cell_text(cell) for cell in row.find_all(("td", "th"), recursive=False)]
        row.replace_with(NavigableString("\n| " + " | ".join(cells) + " |\n"))
    for br in soup.find_all("br"):
        br.replace_with(NavigableString("\n"))
    for tag in soup.find_all(_BLOCKS):
        tag.insert_before(NavigableString("\n\n"))
        tag.insert_after(NavigableString("\n\n"))
    raw = soup.get_text()
    lines = [line.strip() for line in raw.split("\n")]
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
    return out.strip("\n") + "\n"


def _cell_text(cell: Tag) -> str:
    for br in cell.find_all("br"):
        br.replace_with(NavigableString("<br>"))
    for tag in cell.find_all(("p", "div", "li")):
        tag.insert_after(NavigableString("<br><br>"))
    text = re.sub(r"\s+", " ", cell.get_text()).strip()
    text = re.sub(r"\s*<br>\s*", "<br>", text)
    return re.sub(r"(?:<br>)+$", "", text).replace("|", "/")
