"""What the reader gives back: a recognised document, its entries, and the two refusals."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.ingest.parsers import Amendment, ParseWarning
from bot.models import KIND_RULE


class UnreadableDocument(ValueError):
    """The bytes are not a text document (empty, binary, or in no encoding we can read)."""


class DocumentTooLarge(UnreadableDocument):
    """The document is past one of the reader's limits (``bot.ingest.reader.limits``)."""


class UnknownShape(ValueError):
    """The text was read but matches no known document shape. ``heads``: the lines of the
    page that open like an entry, (line, title), which a moderator may name as heads."""

    def __init__(self, message: str = "", heads: list[tuple[int, str]] | None = None):
        super().__init__(message)
        self.heads = list(heads or ())


class CorrectionError(ValueError):
    """A moderator's correction names no entry, or says nothing the reader understands."""


@dataclass
class ReadEntry:
    """One entry as the document prints it."""

    title: str  # exactly as printed, in its own case (titles may be card names)
    text: str  # exact text; paragraphs joined by a blank line
    line: int  # 1-based line of the title in the (decoded, HTML-stripped) text
    kind: str = KIND_RULE
    date: str | None = None  # ISO date printed with this entry, if any
    cards: list[str] = field(default_factory=list)  # from "Applicable Cards:"
    amendments: list[Amendment] = field(default_factory=list)
    marked_new: bool = False
    see_also: list[str] = field(default_factory=list)
    taken_from: str | None = None
    confidence: float = 1.0  # how sure the reader is of this entry's head (shapes: 1.0)


@dataclass
class Metadata:
    """What the document prints about itself (None where nothing is printed)."""

    title: str | None = None
    edition: str | None = None  # "1E" | "2E"
    date: str | None = None  # ISO
    kind: str | None = None  # one of bot.validate.DOCUMENT_KINDS, as its title names it
    # the kind a word at the page's top suggests ("see the Glossary"): a guess, which an
    # option or the shape's own kind comes before
    kind_mentioned: str | None = None


@dataclass
class ReadDocument:
    shape: str  # the shape's name in the registry
    encoding: str  # how the bytes were decoded ("utf-8", "utf-8-sig", "utf-16", "cp1252", ...)
    entries: list[ReadEntry]
    warnings: list[ParseWarning]
    metadata: Metadata
    parser: str  # the parser that read it: the shape itself, or a bundled parser's name
    html: bool = False  # the bytes were an HTML page, turned to text first


@dataclass
class Parsed:
    entries: list[ReadEntry] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)
    parser: str | None = None  # set by shapes that delegate to a bundled parser
    # Set by a shape sure of what the page is and that it holds no ruling ("a card's page
    # without rule notes"): the page is refused as that, no other shape is tried on it.
    holds_none: str | None = None

    def ignored(self, lines: list[tuple[int, str]], what: str, detail: str = "") -> None:
        """A warning that these (number, text) lines were read past: ``what`` they are, how
        many (and ``detail``), and how the first begins."""
        if lines:
            number, first = lines[0]
            self.warnings.append(
                ParseWarning(
                    number,
                    f"{what} ({len(lines)} line{'s' if len(lines) > 1 else ''}{detail}), "
                    f"ignored: {first[:60]!r}",
                )
            )


@dataclass(frozen=True)
class Shape:
    """One document shape: ``detect`` scores the text 0..1, ``parse`` reads it."""

    name: str
    description: str
    detect: Callable[[str], float]
    parse: Callable[[str], Parsed]
    # False where repeated titles are the shape's nature (a FAQ's several Q/A under a topic).
    unique_titles: bool = True
    # True where the shape's form is only the committee's own (a dated rulings feed, the
    # history of rule changes): its titles need not be known to be trusted.
    own_form: bool = False
