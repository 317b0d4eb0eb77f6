"""A page of this folder as a typesetter's document (LaTeX), to print with pdfTeX:
``python make_tex.py PAGE.html OUT.tex --columns 2`` then ``pdflatex OUT.tex``. See
README.md.

Each ``<p>`` a paragraph with 6 pt between paragraphs and no indent, ``<b>``/``<i>`` in
bold and italics, a ``<ul>`` an itemised list, an ``<h1>`` a centred title above the
columns, an ``<h2>`` an unnumbered heading; a running header and a page-number footer.
LaTeX justifies every line and hyphenates words at a line's end."""

from __future__ import annotations

import argparse
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "“": "``", "”": "''", "‘": "`", "’": "'", "–": "--", "—": "---", "…": r"\ldots{}",
    "•": r"\textbullet{}",
}  # fmt: skip
_FONTS = {
    "times": r"\usepackage{mathptmx}",
    "helvetica": r"\usepackage[scaled]{helvet}\renewcommand{\familydefault}{\sfdefault}",
}


def _escaped(text: str) -> str:
    # a sign the fonts lack (an emoji, a card's diamond) is a question mark
    return "".join(_SPECIAL.get(c, c if ord(c) < 128 else "?") for c in text)


def _inline(node: Tag) -> str:
    parts = []
    for child in node.children:
        if isinstance(child, NavigableString):
            parts.append(_escaped(str(child)))
        elif child.name in ("b", "strong"):
            parts.append(r"\textbf{" + _inline(child) + "}")
        elif child.name in ("i", "em"):
            parts.append(r"\textit{" + _inline(child) + "}")
        elif isinstance(child, Tag):
            parts.append(_inline(child))
    return "".join(parts)


def document(page: str, columns: int, font: str, header: str) -> str:
    """The LaTeX source of ``page`` (this folder's HTML)."""
    body = BeautifulSoup(page, "html.parser").body
    title, paragraphs = "", []
    for element in body.find_all(["h1", "h2", "p", "ul"]):
        if element.name == "h1":
            title = r"\begin{center}\Large\textbf{" + _inline(element) + r"}\end{center}"
        elif element.name == "h2":
            paragraphs.append(r"\subsection*{" + _inline(element) + "}")
        elif element.name == "p" and element.find_parent("li") is None:
            paragraphs.append(_inline(element))
        elif element.name == "ul":
            items = "".join(r"\item " + _inline(item) for item in element.find_all("li"))
            paragraphs.append(r"\begin{itemize}" + items + r"\end{itemize}")
    if title and columns == 2:
        title = r"\twocolumn[" + title + "]"
    options = "10pt,twocolumn" if columns == 2 else "10pt"
    body_text = "\n\n".join(paragraphs)
    if columns > 2:  # the multicol package's balanced columns, the title above them
        opening = r"\begin{multicols}{" + str(columns) + "}"
        body_text = "\n".join([opening, body_text, r"\end{multicols}"])
    return "\n".join(
        [
            r"\documentclass[" + options + "]{article}",
            r"\usepackage[T1]{fontenc}",
            r"\usepackage{multicol}",
            _FONTS[font],
            r"\usepackage[margin=0.75in]{geometry}",
            r"\usepackage{fancyhdr}",
            r"\pagestyle{fancy}\fancyhf{}\fancyhead[C]{" + _escaped(header) + "}",
            r"\fancyfoot[C]{Page \thepage}",
            r"\setlength{\parindent}{0pt}\setlength{\parskip}{6pt}",
            r"\begin{document}",
            title,
            body_text,
            r"\end{document}",
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--columns", type=int, default=2, choices=[1, 2, 3])
    parser.add_argument("--font", default="times", choices=sorted(_FONTS))
    parser.add_argument("--header", default="Current Rulings Document")
    args = parser.parse_args()
    page = args.page.read_text(encoding="utf-8")
    args.out.write_text(document(page, args.columns, args.font, args.header), encoding="utf-8")


if __name__ == "__main__":
    main()
