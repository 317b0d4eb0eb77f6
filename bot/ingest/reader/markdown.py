"""Markdown's marks on a page saved as Markdown: a heading's ``#`` marks are no part of its
title, nor are the bold marks around a term (or a forum's ``[b]`` tags, or HTML's inline
tags left in a text). Each test is a scan of one line: linear."""

from __future__ import annotations

import re

from bot.ingest.reader.head_forms import inline, without_alt_text
from bot.ingest.reader.known import is_known


def _bold(words: str) -> str:
    """The three ways a page prints bold (Markdown's two, a forum's BBCode) around ``words``
    (a quantifier for the marked text), each as a group."""
    return rf"\*\*([^*\n]{words})\*\*|__([^_\n]{words})__|\[b\]([^\[\n]{words})\[/b\]"


# A line that opens with a term in bold, perhaps as a list's item: "**cloaking device**: …",
# "- **Brilgar** – …", a forum post's "[b]Tongo[/b] - …". The term holds no mark of its own
# and is short; a bounded class, so the scan is linear.
_BOLD_TERM = re.compile(rf"^(?:[-*+•]\s+)?(?:{_bold('{1,80}?')})(?=[\s:.,;–—-]|$)", re.I)


def heading_level(line: str) -> int:
    """The level of a Markdown heading line ("## Title": 2), 0 for any other line."""
    if not line.startswith("#"):
        return 0
    bare = line.lstrip("#")
    level = len(line) - len(bare)
    return level if level <= 6 and bare.startswith(" ") and bare.strip() else 0


def without_marks(line: str) -> str:
    """A Markdown heading's text without its marks ("### Reveal" is the title "Reveal"), as
    a page saved as Markdown prints a title line of its own."""
    if not heading_level(line):
        return line  # "#hashtag", "####### x": no heading
    heading = line.lstrip("#").strip().rstrip("#").rstrip()
    # A heading is a title line of its own: one that prints "A – B" keeps its marks, so the
    # dash is never read as a "Title – text" head ("# STCCG 1E - Glossary coverage").
    return line if inline(heading) is not None else heading


# A list's bullet before a title line of its own, as a copy of a list of titles prints it
_BULLET = re.compile(r"^[-*+•]\s+(?=\S)")


def heading_text(line: str) -> str:
    """A title line's words without a Markdown heading's marks or a list's bullet ("###
    Dead End", "- Dead End" are "Dead End"); any other line as it is. A shape that takes a
    title line whole takes it so from a page saved as Markdown or typed as a list."""
    if heading_level(line):
        return line.lstrip("#").strip().rstrip("#").rstrip()
    return _BULLET.sub("", line, count=1)


def without_bold_terms(lines: list[str]) -> list[str]:
    """``lines`` without the bold marks around the term each opens with, and without the
    list's bullet before it ("- **Brilgar** – This card …" is "Brilgar – This card …"),
    where two or more lines open so: a glossary printed as a list of bold terms. One bold
    lead-in is a paragraph's emphasis ("**Note** — …") unless it is a title the project
    knows or it opens the page (a wiki's one entry, "**Outpost** – A kind of facility."),
    and a bullet before plain text stays a list's item."""
    matches = [_BOLD_TERM.match(line.lstrip()) for line in lines]
    if not any(matches):
        return lines
    glossary = sum(1 for match in matches if match) >= 2
    first = next(number for number, line in enumerate(lines) if line.strip())
    out = []
    for number, (line, match) in enumerate(zip(lines, matches, strict=True)):
        term = next((g for g in match.groups() if g is not None), "").strip() if match else ""
        # one bold lead-in is a term where the project knows it ("**unique and universal**
        # – …") or where it opens the page, as a wiki's one entry does: it then reads as the
        # same page printed plain would. Elsewhere it is a paragraph's emphasis.
        if match is not None and (glossary or number == first or is_known(term)):
            line = term + line.lstrip()[match.end() :]
        out.append(line)
    return out


# HTML's inline tags left in a text (a page's source copied, a CMS's export, a forum's HTML
# post): "<b>Tongo</b> – …", "<a href=…>Kira</a>". Marks, not words; a tag's attributes
# hold an "=" ("<a specified brig module>" is words). Linear: a tag's name, then at most an
# attribute's name and 200 characters that hold no bracket and no line break.
_INLINE_TAG = re.compile(
    r"</?(?:b|strong|i|em|u|s|span|font|a|small|big|sup|sub)(?:\s+[\w-]{1,20}=[^<>\n]{0,200})?>",
    re.I,
)


def without_inline_tags(text: str) -> str:
    """``text`` (a page's text, not HTML) without HTML's inline tags; each line keeps its
    number."""
    return _INLINE_TAG.sub("", text) if "<" in text else text


# A forum's BBCode left in a text (a post quoted, or copied out of a forum's editor):
# tags that mark words, never words themselves; bold ("[b]") is Markdown's bold. A tag is
# taken off only where the text holds its closing tag, in the case that tag was written,
# so an icon printed in brackets ("[S]", "[Bor]") stays where no "[/S]" closes one. An
# opening tag's value ("[url=…]", "[quote="James Heaney"]") is bounded and holds no
# bracket: linear.
_BBCODE = (
    "i",
    "u",
    "s",
    "url",
    "quote",
    "color",
    "colour",
    "size",
    "font",
    "center",
    "left",
    "right",
    "code",
    "spoiler",
    "email",
    "highlight",
    "list",
    "img",
)
_BBCODE_CLOSING = re.compile(r"\[/(" + "|".join(_BBCODE) + r")\]", re.I)
_BBCODE_IMAGE = re.compile(r"\[img(?:=[^\]\n]{0,300})?\][^\[\n]{0,2000}\[/img\]", re.I)
_BBCODE_BOLD = re.compile(r"\[/?b\]", re.I)
_BBCODE_ITEM = re.compile(r"\[\*\]")  # a list's item, in a list the text closes

# A link as Markdown writes it, a web clipper's copy of a page's links: "[Dead End](https://…)"
# is the words "Dead End"; an image, "![Borg icon](…)", its alternative text. The words may
# hold an icon in brackets ("[Borg Use Only icon [BO]](…)"). Bounded, and each step of the
# words either a bracket's pair or no bracket: linear.
_MD_LINK = re.compile(
    r"!?\[((?:[^\[\]\n]|\[[^\[\]\n]{0,40}\]){0,300})\]"
    r"\([^()\s]{1,2000}(?:\s+\"[^\"\n]{0,300}\")?\)"
)


def _bbcode_tag(names: set[str]) -> re.Pattern[str]:
    """The opening and closing tags of ``names``, each in the case its closing tag was
    written in ("[/s]" closes no "[S]", the Space icon)."""
    group = "|".join(sorted(names))
    return re.compile(rf"\[/?(?:{group})(?:=[^\[\]\n]{{0,300}})?\]")


def without_forum_marks(text: str) -> str:
    """``text`` without the marks a forum's BBCode and Markdown's links leave in a copy:
    the tags closed somewhere in it ("[i]Borg[/i]", "[quote="…"]…[/quote]", "[url=…]…
    [/url]"), a list's "[*]" as a bullet, an image's tags with its address, bold as
    Markdown's ("**"), and a Markdown link as its words. Each line keeps its number."""
    if "[" not in text:
        return text
    closed = {m.group(1) for m in _BBCODE_CLOSING.finditer(text)}
    if {"img", "IMG"} & closed:
        text = _BBCODE_IMAGE.sub("", text)
    if {"list", "LIST"} & closed:
        text = _BBCODE_ITEM.sub("• ", text)
    if closed:
        text = _bbcode_tag(closed).sub("", text)
    if "[/b]" in text.lower():
        text = _BBCODE_BOLD.sub("**", text)  # bold as Markdown prints it, read as such above
    return _MD_LINK.sub(r"\1", text) if "](" in text else text


# Markdown's escape of a mark meant as a character: a backslash before any ASCII
# punctuation (CommonMark), as a web clipper or a converter saving a page as Markdown writes
# "\* assimilation", "1\. The ship is destroyed.", "\[Bor\]". Rules text prints no
# backslash of its own, so even one is an escape.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def without_escapes(text: str) -> str:
    """``text`` without Markdown's backslash escapes; each line keeps its number."""
    return _ESCAPE.sub(r"\1", text) if "\\" in text else text


_QUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+")  # "> ", ">> ", "> > ": a quoted line's marks
_FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)[\w+-]{0,20}[ \t]*$")  # a code block's fence


def without_quoting(text: str) -> str:
    """``text`` without the marks a paste quotes it with: a code block's fences (a page
    pasted into Discord between fence lines, ```), and the "> " before each line where most of
    the page is quoted (a forwarded mail, a Discord or newsgroup quote). Each line keeps
    its number, so corrections name the same lines."""
    lines = text.split("\n")
    filled = [line for line in lines if line.strip()]
    quoted = sum(1 for line in filled if _QUOTE.match(line))
    unquote = bool(filled) and 2 * quoted >= len(filled)
    out = []
    for line in lines:
        if _FENCE.match(line):
            line = ""
        elif unquote and (mark := _QUOTE.match(line)):
            line = line[mark.end() :]
        out.append(line)
    return "\n".join(out)


# Bold marks around a whole title or line: "**Dead End**", "__Rules__", "[b]Tongo[/b]"
_BOLD_TITLE = re.compile(_bold("+"), re.I)


def without_bold(title: str) -> str:
    """``title`` without the bold marks around all of it ("**Dead End**"), as a shape that
    does not read Markdown keeps them from a pasted page."""
    if match := _BOLD_TITLE.fullmatch(title.strip()):
        return next(group for group in match.groups() if group is not None).strip()
    return title


def without_bold_lines(text: str) -> str:
    """``text`` with each line that is all one bold span as its words: a title line of its
    own, bold as a Markdown page, a forum post or a chat paste prints it ("**Dead End**").
    Bold inside a line is a paragraph's emphasis or a shape's mark, and stays."""
    if "**" not in text and "__" not in text and "[b]" not in text.lower():
        return text
    return "\n".join(_bold_line_as_words(line) for line in text.split("\n"))


def _bold_line_as_words(line: str) -> str:
    """``line`` as its words where it is one bold span, or a bold icon's title followed by
    its image's alt text ("**Gamma Quadrant icon** Gamma Quadrant": the alt text is not
    bold); else as it is."""
    bare = without_bold(line)
    if bare != line:
        return bare
    if (match := _BOLD_TITLE.match(line.strip())) and match.end() < len(line.strip()):
        title = next(group for group in match.groups() if group is not None).strip()
        unbolded = f"{title} {line.strip()[match.end() :].strip()}"
        if without_alt_text(unbolded) == title:
            return unbolded
    return line
