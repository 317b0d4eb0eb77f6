"""1E Current Rulings Document (the 2014-11-03 CRD, Markdown-ish).

Shape: a preamble up to ``RULINGS – General``; then entries whose title stands on its own
line (``matching commander –``, ``Brilgar –Erratum:``, ``Alien Parasites``) followed by
paragraphs, or shares its line with the text (``named in lore - a personnel ...``,
``***couple** - a **personnel** ...``). Many entries amend the 1E Glossary ("Replace this
entry with the following:", "Add the following after the tenth paragraph ..."): the
instructions stay in the text as printed and are also recorded as ``amendments``.
Page breaks split sentences over blank lines; those are rejoined.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParsedEntry, ParseResult, ParseWarning, SourceFormatError
from bot.ingest.parsers.text import (
    amendment_of,
    blocks,
    check_readable,
    clean_title,
    ends_sentence,
    flow,
    is_list_item,
    join_paragraphs,
    see_also,
)
from bot.models import KIND_CARD_RULING, KIND_ERRATUM, KIND_RULE
from bot.normalize import normalize

_START = re.compile(r"^RULINGS\s*[–-]")
_FOOTER = re.compile(r"^TM, ®")
_ERRATUM = re.compile(r"^(.*?)\s*[–-]\s*Erratum:\s*$")
_TITLE_LINE = re.compile(r"^(.{1,60}?)\s*[–-]\s*$")
_BOLD_INLINE = re.compile(r"^(\*{0,3}\*\*[^*]+\*\*)\s*[–-]\s+(.+)$")
_LOWER_INLINE = re.compile(r"^([a-z][a-z ]{2,40}?)\s+-\s+(.+)$")
_MAX_BARE_TITLE = 40


def _title_of(paragraph: str) -> tuple[str, str, str] | None:
    """If a paragraph opens an entry: (raw title, kind, text on the same line)."""
    if "\n" in paragraph:
        return None
    if m := _ERRATUM.match(paragraph):
        return m.group(1), KIND_ERRATUM, ""
    if m := _BOLD_INLINE.match(paragraph):
        return m.group(1), KIND_RULE, m.group(2)
    if amendment_of(paragraph):
        return None
    if m := _TITLE_LINE.match(paragraph):
        return m.group(1), KIND_RULE, ""
    if m := _LOWER_INLINE.match(paragraph):
        return m.group(1), KIND_RULE, m.group(2)
    if is_list_item(paragraph):
        # "- Phlox is a Denobulan": a list's item, a paragraph of its own where a word
        # processor spaces the items apart (a PDF's text), is no title
        return None
    if len(paragraph) <= _MAX_BARE_TITLE and not ends_sentence(paragraph):
        return paragraph, KIND_RULE, ""  # "Alien Parasites", "Borg": no dash printed
    return None


def parse(text: str, path: str, known_titles: frozenset[str] = frozenset()) -> ParseResult:
    """Read the 1E CRD into entries (see the module docstring)."""
    check_readable(text, path)
    result = ParseResult()
    body = blocks(text)
    start = next((i for i, (_, lines) in enumerate(body) if _START.match(lines[0])), None)
    if start is None:
        raise SourceFormatError(path, None, "no 'RULINGS – General' section; not a 1E CRD")

    # Rejoin sentences split by page breaks before looking for titles.
    paragraphs: list[tuple[int, str]] = []
    for line_no, lines in body[start + 1 :]:
        paragraph = "\n".join(flow(lines))
        if paragraphs and paragraph[:1].islower() and not ends_sentence(paragraphs[-1][1]):
            # "Alien Parasites" + "replace the first sentence ...": an instruction starts a
            # paragraph of its own (as in ``flow``), so the bare title above it stays a title.
            # A term's own line ("stopped –") opens an entry wherever it stands.
            if (
                not _LOWER_INLINE.match(paragraph)
                and not amendment_of(paragraph)
                and not _TITLE_LINE.match(paragraph)
            ):
                paragraphs[-1] = (paragraphs[-1][0], f"{paragraphs[-1][1]} {paragraph}")
                continue
        paragraphs.append((line_no, paragraph))

    current: ParsedEntry | None = None
    texts: list[str] = []

    def close() -> None:
        if current is None:
            return
        current.text = join_paragraphs(texts)
        current.amendments = [a for a in (amendment_of(p) for p in texts) if a]
        current.see_also = see_also(current.text)
        if not current.text:
            result.warnings.append(
                ParseWarning(current.line, f"entry {current.title!r} has no text")
            )
        result.entries.append(current)

    for line_no, paragraph in paragraphs:
        if _FOOTER.match(paragraph):
            continue  # the trademark notice at the end of the document
        opened = _title_of(paragraph)
        if opened:
            close()
            raw_title, kind, rest = opened
            title, marked_new = clean_title(raw_title)
            if kind == KIND_RULE and normalize(title) in known_titles:
                kind = KIND_CARD_RULING
            current = ParsedEntry(
                title=title, text="", line=line_no, kind=kind, marked_new=marked_new
            )
            texts = [rest] if rest else []
            continue
        if current is None:
            result.warnings.append(ParseWarning(line_no, "text before the first entry; ignored"))
            continue
        texts.append(paragraph)
    close()
    if not result.entries:
        raise SourceFormatError(path, None, "no entries after 'RULINGS – General'")
    return result
