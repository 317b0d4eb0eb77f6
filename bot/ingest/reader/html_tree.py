"""A saved HTML page's tree walked to its text (:func:`bot.ingest.reader.html.to_text`).

Uses Beautiful Soup with Python's own ``html.parser`` (no compiled dependency): it is
tolerant of the broken markup old rules pages have. ``<br>`` becomes a line break, block
elements become paragraphs, and each table row becomes one ``| cell | cell |`` line (a line
break inside a cell is written ``<br>``, as Markdown tables do).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from bs4 import BeautifulSoup, NavigableString, PageElement, Tag

_BLOCKS = (
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "table", "section",
    "article", "blockquote", "pre", "header", "footer", "nav", "dl", "dt", "dd", "hr", "main",
)  # fmt: skip
_DROP = (
    "script",
    "style",
    "noscript",
    "template",
    "head",
    "form",
    "button",
    "select",
    "svg",
    "iframe",
)
# A site's chrome, by the markup's own words: the elements a page marks as navigation, a
# sidebar, a footer, a cookie notice or a share bar (as main-content extractors read them).
_CHROME_TAGS = ("nav", "aside")
_CHROME_ROLES = frozenset({"navigation", "complementary", "contentinfo", "search"})
_CHROME_WORDS = frozenset(
    "nav navbar navigation menu menubar sidebar breadcrumb breadcrumbs cookie cookies share "
    "sharing social footer advert advertisement ads rail toolbar".split()
)
_WORD_SPLIT = re.compile(r"[\s_-]+")
_CONTENT = ("main", "article", "h1", "body")
_MEASURE_BUDGET = 8  # times the page's text that measuring possible chrome may read
# An element holding this share of the page's text is its content, whatever it is called.
_MOST_OF_PAGE = 0.5


def to_text(text: str, left_out: list[str] | None = None) -> str:
    """The page's visible text, one paragraph per block, blank lines between them; the
    elements the markup marks as the site's chrome are left out, and their text is added
    to ``left_out`` (one string each) so that the reader can say what it left out."""
    soup = BeautifulSoup(text, "html.parser")
    skip = _chrome(soup)
    if left_out is not None:
        left_out += [" ".join(tag.get_text(" ").split()) for tag in skip.values()]
    raw = _walk(soup, "\n", "\n\n", table_rows=True, skip=skip.keys())
    lines = [line.strip() for line in raw.split("\n")]
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
    return out.strip("\n") + "\n"


def _marked_chrome(tag: Tag, in_content: bool) -> str | None:
    """How the markup marks ``tag`` as the site's chrome ("element": by its tag, role or
    hidden state; "name": by a word of its class or id), else None. ``in_content``: inside
    the page's ``<main>`` or an ``<article>``, where a footer is the article's own."""
    if tag.name in _CHROME_TAGS or tag.has_attr("hidden"):
        return "element"
    if tag.get("role") in _CHROME_ROLES or tag.get("aria-hidden") == "true":
        return "element"
    if tag.name == "footer":
        return None if in_content else "element"  # an article's own footer may hold its date
    classes = tag.get("class") or []
    names = " ".join([*classes, str(tag.get("id") or "")]) if classes or tag.get("id") else ""
    if names and tag.name not in _CONTENT:
        if any(w in _CHROME_WORDS for w in _WORD_SPLIT.split(names.lower())):
            return "name"
    return None


def _chrome(soup: BeautifulSoup) -> dict[int, Tag]:
    """The chrome elements to leave out, by id, in the page's order: the outermost of each,
    and never one that holds most of the page's text or, when only its name marks it, the
    page's heading or article (a site may call its content "main-nav-page"). One pass over
    the tree; the elements that look like chrome are measured within a budget of a few
    times the page's text, so deeply nested markup stays linear."""
    total = len(soup.get_text())
    budget = _MEASURE_BUDGET * total
    skip: dict[int, Tag] = {}
    stack: list[tuple[Tag, bool]] = [(soup, False)]
    while stack:  # the tree in document order (depth first, children left to right)
        node, in_content = stack.pop()
        if node is not soup and budget > 0 and (how := _marked_chrome(node, in_content)):
            size = len(node.get_text())
            budget -= 2 * size + 1  # its text, and the search for content inside it
            if size < _MOST_OF_PAGE * total and (how == "element" or node.find(_CONTENT) is None):
                skip[id(node)] = node
                continue
        inside = in_content or node.name in ("main", "article")
        stack.extend((c, inside) for c in reversed(node.contents) if isinstance(c, Tag))
    return skip


def _walk(
    root: Tag, br: str, block: str, table_rows: bool, skip: Collection[int] = frozenset()
) -> str:
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
            if name in _DROP or id(node) in skip:
                continue
            if name == "br":
                out.append(br)
            elif name == "tr" and table_rows:
                cells = [
                    _cell_text(c)
                    for c in node.find_all(("td", "th"), recursive=False)
                    if id(c) not in skip  # a layout table's menu cell is the site's chrome
                ]
                if cells:
                    out.append("\n| " + " | ".join(cells) + " |\n")
            else:
                pre = in_pre or name == "pre"
                children = list(node.children)
                if name in _RUN_IN_BLOCKS and (lead := _bold_lead(children)) is not None:
                    children.insert(lead + 1, " – ")  # a bold title run into its text
                # a list's item stays an item, one to a line as a copy of the text prints
                # it ("- Tora Ziyal is Bajoran and Cardassian"): no paragraph of its own,
                # whose line a shape could read as a title
                item = name == "li" and node.parent is not None and node.parent.name == "ul"
                if item:
                    children.insert(0, "- ")
                if name in _BLOCKS and not item:
                    stack.append((block, pre))
                stack.extend((child, pre) for child in reversed(children))
                if name in _BLOCKS:
                    stack.append((br if item else block, pre))
    return "".join(out)


_RUN_IN_BLOCKS = frozenset(("p", "li", "dd", "div"))
_BOLD = frozenset(("b", "strong"))
_RUN_IN_WORDS = 8  # a bold title run into its text is a few words


def _bold_lead(children: list[PageElement]) -> int | None:
    """The index of the bold title a block opens with and runs into its text ("<p><b>matching
    commander</b> A personnel is …"): bold is how a page sets a title there, and the text
    after it shows where the title ends. None where the bold part ends in punctuation or is
    followed by its own separator (": ", " – "), or by no text."""
    filled = [i for i, child in enumerate(children) if not _blank(child)]
    if len(filled) < 2:
        return None
    lead, after = children[filled[0]], children[filled[1]]
    if not isinstance(lead, Tag) or lead.name not in _BOLD or lead.find(_BLOCKS) is not None:
        return None
    title = " ".join(lead.get_text(" ").split())
    if not title or len(title.split()) > _RUN_IN_WORDS or title[-1] in ".:;,!?–—-":
        return None
    if type(after) is not NavigableString:  # text, not a tag, a comment or a doctype
        return None
    rest = str(after).lstrip()
    return filled[0] if rest[:1].isalnum() or rest[:1] in "\"“'(" else None


def _blank(child: PageElement) -> bool:
    return isinstance(child, NavigableString) and not str(child).strip()


def _cell_text(cell: Tag) -> str:
    text = _walk(cell, "<br>", "<br><br>", table_rows=False)
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s*<br>\s*", "<br>", text)
    text = re.sub(r"^(?:<br>)+|(?:<br>)+$", "", text)
    return text.replace("|", "/")
