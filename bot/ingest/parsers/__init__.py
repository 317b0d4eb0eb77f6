"""One parser per document shape. Each turns a source file's text into ``ParsedEntry`` rows.

A parser is a function ``parse(text: str, path: str) -> ParseResult``. It must not drop an
entry silently: anything it cannot place becomes a ``ParseWarning`` with a line number, and
input it cannot read at all raises ``SourceFormatError`` naming the file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.models import KIND_RULE


class SourceFormatError(ValueError):
    """A source document cannot be read; the message names the file and line."""

    def __init__(self, path: str, line: int | None, message: str):
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.reason = path, line, message


@dataclass
class Amendment:
    action: str  # one of AMEND_ACTIONS
    instruction: str  # the document's own words, e.g. "Replace this entry with the following:"


@dataclass
class ParsedEntry:
    """One entry as a document prints it (before ids, topics and mentions are assigned)."""

    title: str  # as printed, markup removed
    text: str  # exact text; paragraphs joined by a blank line; Markdown emphasis
    line: int  # 1-based line of the entry's title in the source
    kind: str = KIND_RULE
    marked_new: bool = False
    amendments: list[Amendment] = field(default_factory=list)
    see_also: list[str] = field(default_factory=list)  # cross-reference targets as printed
    taken_from: str | None = None  # a community copy's attribution ("Rulebook")


@dataclass
class ParseWarning:
    line: int
    message: str
    # A doubt about an entry's boundaries or title (two entries read as one, a heading read
    # as a title): it blocks applying until the entries are corrected. Other warnings are
    # notes, which a moderator may accept.
    doubt: bool = False


@dataclass
class ParseResult:
    entries: list[ParsedEntry] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)


Parser = Callable[[str, str], ParseResult]


# Parser name (as written in rulings_data/documents.yaml) -> module in this package.
PARSER_MODULES = {
    "crd-2e-text": "crd_2e_text",
    "crd-2e-markdown": "crd_2e_markdown",
    "crd-1e-markdown": "crd_1e",
    "glossary-table": "glossary",
    "opencards-terms": "opencards",
}


def get_parser(name: str) -> Parser:
    """The parser registered under ``name`` in ``rulings_data/documents.yaml``."""
    import importlib

    try:
        module = PARSER_MODULES[name]
    except KeyError:
        known = ", ".join(sorted(PARSER_MODULES))
        raise ValueError(f"unknown parser {name!r}; known: {known}") from None
    return importlib.import_module(f"bot.ingest.parsers.{module}").parse
