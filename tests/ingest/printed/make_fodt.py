"""A page of this folder as a word processor's document (flat OpenDocument text), to print
with LibreOffice: ``python make_fodt.py PAGE.html OUT.fodt --columns 2`` then
``soffice --headless --convert-to pdf OUT.fodt``. See README.md.

Each ``<p>`` a paragraph with 6 pt after it, ``<b>``/``<i>`` spans, a ``<ul>`` a bulleted
list (a bullet, then a tab stop), an ``<h1>`` a centred title above the columns, an ``<h2>``
a bold heading in its place; a running header (optional) and a page-number footer."""

from __future__ import annotations

import argparse
import html
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag

_STYLES = """\
<style:style style:name="P1" style:family="paragraph"><style:paragraph-properties \
fo:text-align="{align}" fo:margin-top="0pt" fo:margin-bottom="6pt"/></style:style>
<style:style style:name="PT" style:family="paragraph"><style:paragraph-properties \
fo:text-align="center" fo:margin-bottom="8pt"/><style:text-properties fo:font-size="14pt" \
fo:font-weight="bold"/></style:style>
<style:style style:name="PH2" style:family="paragraph"><style:paragraph-properties \
fo:margin-top="6pt" fo:margin-bottom="6pt"/><style:text-properties fo:font-size="12pt" \
fo:font-weight="bold"/></style:style>
<style:style style:name="PH" style:family="paragraph"><style:paragraph-properties \
fo:text-align="center"/><style:text-properties fo:font-size="8pt"/></style:style>
<style:style style:name="TB" style:family="text"><style:text-properties fo:font-weight="bold"/>\
</style:style>
<style:style style:name="TI" style:family="text"><style:text-properties fo:font-style="italic"/>\
</style:style>
<style:style style:name="S1" style:family="section"><style:section-properties><style:columns \
fo:column-count="{columns}" fo:column-gap="0.3in"/></style:section-properties></style:style>
<text:list-style style:name="L1"><text:list-level-style-bullet text:level="1" \
text:bullet-char="•"><style:list-level-properties \
text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment \
text:label-followed-by="listtab" text:list-tab-stop-position="0.25in" fo:text-indent="-0.25in" \
fo:margin-left="0.25in"/></style:list-level-properties></text:list-level-style-bullet>\
</text:list-style>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="8.5in" \
fo:page-height="11in" fo:margin-top="0.5in" fo:margin-bottom="0.5in" fo:margin-left="0.75in" \
fo:margin-right="0.75in"/><style:header-style><style:header-footer-properties fo:min-height="0in" \
fo:margin-bottom="0.2in"/></style:header-style><style:footer-style><style:header-footer-properties \
fo:min-height="0in" fo:margin-top="0.2in"/></style:footer-style></style:page-layout>"""

_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"'
)


def _inline(node: Tag) -> str:
    parts = []
    for child in node.children:
        if isinstance(child, NavigableString):
            parts.append(html.escape(str(child), quote=False))
        elif child.name in ("b", "strong"):
            parts.append(f'<text:span text:style-name="TB">{_inline(child)}</text:span>')
        elif child.name in ("i", "em"):
            parts.append(f'<text:span text:style-name="TI">{_inline(child)}</text:span>')
        elif isinstance(child, Tag):
            parts.append(_inline(child))
    return "".join(parts)


def document(page: str, columns: int, font: str, align: str, header: str) -> str:
    """The flat OpenDocument text of ``page`` (this folder's HTML)."""
    body = BeautifulSoup(page, "html.parser").body
    titles, paragraphs = [], []
    for element in body.find_all(["h1", "h2", "p", "ul"]):
        if element.name == "h1":
            titles.append(f'<text:p text:style-name="PT">{_inline(element)}</text:p>')
        elif element.name == "h2":
            paragraphs.append(f'<text:p text:style-name="PH2">{_inline(element)}</text:p>')
        elif element.name == "p" and element.find_parent("li") is None:
            paragraphs.append(f'<text:p text:style-name="P1">{_inline(element)}</text:p>')
        elif element.name == "ul":
            items = "".join(
                f'<text:list-item><text:p text:style-name="P1">{_inline(item)}</text:p>'
                "</text:list-item>"
                for item in element.find_all("li")
            )
            paragraphs.append(f'<text:list text:style-name="L1">{items}</text:list>')
    running = (
        f'<style:header><text:p text:style-name="PH">{html.escape(header)}</text:p></style:header>'
        if header
        else ""
    )
    footer = (
        '<style:footer><text:p text:style-name="PH">Page <text:page-number '
        'text:select-page="current">1</text:page-number></text:p></style:footer>'
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<office:document {_NAMESPACES} office:version="1.3" '
        'office:mimetype="application/vnd.oasis.opendocument.text">\n'
        f'<office:font-face-decls><style:font-face style:name="{font}" '
        f"svg:font-family=\"'{font}'\"/></office:font-face-decls>\n"
        '<office:styles><style:default-style style:family="paragraph"><style:text-properties '
        f'style:font-name="{font}" fo:font-size="10pt" fo:language="en" fo:country="US"/>'
        "</style:default-style></office:styles>\n"
        f"<office:automatic-styles>{_STYLES.format(align=align, columns=columns)}"
        "</office:automatic-styles>\n"
        '<office:master-styles><style:master-page style:name="Standard" '
        f'style:page-layout-name="pm1">{running}{footer}</style:master-page>'
        "</office:master-styles>\n"
        f"<office:body><office:text>{''.join(titles)}"
        f'<text:section text:style-name="S1" text:name="Body">{"".join(paragraphs)}'
        "</text:section></office:text></office:body></office:document>\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--columns", type=int, default=2)
    parser.add_argument("--font", default="Liberation Serif")
    parser.add_argument("--align", default="justify", choices=["justify", "start"])
    parser.add_argument("--header", default="")
    args = parser.parse_args()
    page = args.page.read_text(encoding="utf-8")
    args.out.write_text(
        document(page, args.columns, args.font, args.align, args.header), encoding="utf-8"
    )


if __name__ == "__main__":
    main()
