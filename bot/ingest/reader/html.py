"""A saved HTML page to text, before shape detection (detected from the content).

Whether a text is an HTML page, and its title, are told without parsing it; its text is
taken by walking the parsed tree (:mod:`bot.ingest.reader.html_tree`), loaded only then.
"""

from __future__ import annotations

import html
import re

_LOOKS_HTML = re.compile(r"<(?:html|head|body|p|div|table|tr|td|h[1-6]|ul|li)\b", re.I)


def looks_like_html(text: str) -> bool:
    head = text[:8192].lstrip().lower()
    if head.startswith(("<!doctype html", "<html")):
        return True
    return len(_LOOKS_HTML.findall(text[:8192])) >= 3


def page_title(text: str) -> str | None:
    """The page's ``<title>`` without the site's name after it ("Skills | Star Trek CCG Wiki
    | Fandom" is the page "Skills"). Found by two searches in the page's head, not a parse
    of it: a title holds text only."""
    head = text[:20000]
    folded = head.lower()
    start = folded.find("<title")
    while start >= 0 and folded[start + 6 : start + 7] not in (">", " ", "\t", "\n", "\r"):
        start = folded.find("<title", start + 6)  # "<titlebar>" is no title
    opened = folded.find(">", start) + 1 if start >= 0 else 0
    end = folded.find("</title", opened) if opened else -1
    if end < 0:
        return None
    title = " ".join(html.unescape(head[opened:end]).split())
    return title.split(" | ")[0].strip() or None


def to_text(text: str, left_out: list[str] | None = None) -> str:
    """The page's visible text, one paragraph per block, blank lines between them; the
    elements the markup marks as the site's chrome are left out, and their text is added
    to ``left_out`` (one string each) (:func:`bot.ingest.reader.html_tree.to_text`)."""
    # Here, not at the top: Beautiful Soup takes a third of the reader's import, and the
    # worker that reads a text upload never needs it.
    from bot.ingest.reader import html_tree

    return html_tree.to_text(text, left_out)
