"""The openCards 2E "terms" overview (a community copy of Rulebook and CRD text).

Shape: a preamble, a table "TermTaken from" whose rows glue each term to its source
(``abilitiesCurrent-Rulings``), then each term: its title on a line of its own, its text,
and a closing ``Taken from X.`` line. The table is used to cross-check the entries: a term
in one and not the other is a warning, never a silent loss.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParsedEntry, ParseResult, ParseWarning, SourceFormatError
from bot.ingest.parsers.text import check_readable, flow, join_paragraphs, see_also
from bot.models import KIND_RULE

_TABLE_HEADER = "TermTaken from"
_SOURCES = ("Current-Rulings", "Rulebook")
_TAKEN_FROM = re.compile(r"^Taken from (.+?)\.?$")
_COUNT = re.compile(r"there are (\d+) Terms listed", re.I)


def _table(lines: list[str], path: str) -> tuple[int, list[tuple[str, str, int]]]:
    """(index after the table, [(term, source, line number)])."""
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == _TABLE_HEADER)
    except StopIteration:
        raise SourceFormatError(
            path, None, f"no '{_TABLE_HEADER}' table; not an openCards terms page"
        ) from None
    rows = []
    index = start + 1
    while index < len(lines) and lines[index].strip():
        row = lines[index].strip()
        source = next((s for s in _SOURCES if row.endswith(s)), None)
        if source is None:
            raise SourceFormatError(path, index + 1, f"table row {row!r} names no known source")
        rows.append((row[: -len(source)], source, index + 1))
        index += 1
    return index, rows


def parse(text: str, path: str) -> ParseResult:
    """Read the openCards terms overview into entries (see the module docstring)."""
    check_readable(text, path)
    lines = text.splitlines()
    if not any(_TAKEN_FROM.match(line.strip()) for line in lines):
        raise SourceFormatError(path, None, "no 'Taken from' lines; not an openCards terms page")
    after_table, table = _table(lines, path)
    result = ParseResult()
    terms = {term for term, _, _ in table}

    current: ParsedEntry | None = None
    block: list[str] = []
    paragraphs: list[str] = []

    def end_block() -> None:
        if block:
            paragraphs.extend(flow(block))
            block.clear()

    for number, raw in enumerate(lines[after_table:], after_table + 1):
        line = raw.strip()
        if current is None:
            if not line:
                continue
            if line in terms:
                current = ParsedEntry(title=line, text="", line=number, kind=KIND_RULE)
                paragraphs = []
            else:
                result.warnings.append(
                    ParseWarning(number, f"text outside any term: {line[:60]!r}")
                )
            continue
        taken = _TAKEN_FROM.match(line)
        if taken:
            end_block()
            current.text = join_paragraphs(paragraphs)
            current.taken_from = taken.group(1)
            current.see_also = see_also(current.text)
            if not current.text:
                result.warnings.append(
                    ParseWarning(current.line, f"term {current.title!r} has no text")
                )
            result.entries.append(current)
            current = None
            continue
        if not line:
            end_block()
        else:
            block.append(line)
    if current is not None:
        # The last term of a copy cut off before its "Taken from" line: its text is kept
        # (a term dropped without a word would be a wrong read that nothing flags).
        end_block()
        current.text = join_paragraphs(paragraphs)
        if current.text:
            current.see_also = see_also(current.text)
            result.entries.append(current)
        result.warnings.append(
            ParseWarning(
                current.line,
                f"term {current.title!r} has no 'Taken from' line"
                + (": the copy looks cut off (partial)" if current.text else ""),
            )
        )

    found = [e.title for e in result.entries]
    for term, source, number in table:
        if term not in found:
            result.warnings.append(
                ParseWarning(number, f"the table lists {term!r} but the page has no text for it")
            )
        else:
            entry = next(e for e in result.entries if e.title == term)
            # a term cut off before its "Taken from" line is already said to be (above)
            if entry.taken_from is not None and entry.taken_from != source:
                result.warnings.append(
                    ParseWarning(
                        entry.line,
                        f"{term!r}: the table says {source}, the entry {entry.taken_from}",
                    )
                )
    promised = next((int(m.group(1)) for m in map(_COUNT.search, lines) if m), None)
    if promised is not None and promised != len(result.entries):
        result.warnings.append(
            ParseWarning(1, f"the page promises {promised} terms; {len(result.entries)} were read")
        )
    return result
