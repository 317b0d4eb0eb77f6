"""Bytes in, a recognised document out: the reader for moderators' uploads.

:func:`read_document` decodes the bytes (UTF-8 with or without BOM, UTF-16/32 with BOM, a
legacy single-byte code page found by ``charset-normalizer``; a PDF's text layer through
``pypdf``), turns a saved HTML page into
text, normalises line endings, detects the document's shape from its content alone (never
from the file name or an edition) and reads its entries. Nothing is dropped silently: what
a shape cannot place, and what looks partial, becomes a ``ParseWarning`` with a line number.
Line numbers count lines of the decoded text (of the page's text, for HTML).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.ingest.parsers import ParseWarning, SourceFormatError
from bot.ingest.reader import (
    chrome,
    general,
    glossary_pdf,
    html,
    known,
    limits,
    listing,
    lookalike,
    markdown,
    page_breaks,
    pdf_pages,
    spacing,
)
from bot.ingest.reader.common import check, labelled_kind, none_known
from bot.ingest.reader.decode import decode, references_read, tidy
from bot.ingest.reader.metadata import ImpossibleDate, guess_metadata
from bot.ingest.reader.model import (
    CorrectionError,
    DocumentTooLarge,
    Metadata,
    Parsed,
    ReadDocument,
    ReadEntry,
    Shape,
    UnknownShape,
    UnreadableDocument,
)
from bot.ingest.reader.registry import FLOOR, SHAPES, by_name, ranked
from bot.ingest.reader.split_heads import split_at_heads

__all__ = [
    "FLOOR",
    "CorrectionError",
    "DocumentTooLarge",
    "SHAPES",
    "Metadata",
    "ParseWarning",
    "ReadDocument",
    "ReadEntry",
    "Shape",
    "UnknownShape",
    "UnreadableDocument",
    "by_name",
    "read_document",
    "read_text",
]


def read_document(
    content: bytes, filename: str | None = None, heads: dict[int, str | None] | None = None
) -> ReadDocument:
    """Read an uploaded document. ``filename`` is only quoted in messages, never used to
    choose a shape. ``heads``: lines a moderator says open entries (line number: title, or
    None for the title the line prints). Raises :class:`UnreadableDocument`,
    :class:`UnknownShape` or :class:`CorrectionError`."""
    if len(content) > limits.MAX_DOCUMENT_BYTES:
        raise DocumentTooLarge(
            f"{_name(filename)}the file is {len(content) / 1048576:.1f} MB; a document may be "
            f"{limits.MAX_DOCUMENT_BYTES // 1048576} MB at most. Split it, or upload its text."
        )
    try:
        text, encoding, running = decode(content)
    except UnreadableDocument as error:
        raise UnreadableDocument(f"{_name(filename)}{error}") from None
    return read_text(text, encoding=encoding, filename=filename, heads=heads, running=running)


def read_text(
    text: str,
    encoding: str = "str",
    filename: str | None = None,
    heads: dict[int, str | None] | None = None,
    running: list[str] | None = None,
) -> ReadDocument:
    """:func:`read_document` for text already decoded (``running``: a PDF's running header
    and footer lines, left out of ``text``, for the preview's note)."""
    text = tidy(text)
    is_html = html.looks_like_html(text)
    _check_size(text, filename, lines=not is_html)  # a saved page may be one long line
    title = None
    left_out: list[str] = []
    relaid: list[str] = []  # how the copy's lines were laid again before reading (notes)
    if is_html:
        title = html.page_title(text)
        text = tidy(html.to_text(text, left_out))
        if not text.strip():
            raise UnreadableDocument(f"{_name(filename)}the HTML page has no visible text.")
        _check_size(text, filename)
    else:
        text = markdown.without_inline_tags(text)  # "<b>Tongo</b> – …": marks, not words
        text = markdown.without_forum_marks(text)  # "[i]Borg[/i]", "[Dead End](https://…)"
        text = markdown.without_escapes(text)  # "\* assimilation" as a clipper saves it
        if encoding != "pdf":  # a PDF read here has its page breaks and hyphens done
            text, relaid = _as_a_pdf_reads(text)
    text = references_read(text)  # the page's text: "&ndash;" left in it is "–"
    # the page's line numbers, from here on, count the lines of the copy as it is read
    if (undoubled := spacing.single_spaced(text)) is not None:
        text = undoubled
        relaid.append(spacing.NOTE)
    if (unwrapped := spacing.wrapped_twice(text)) is not None:
        text = unwrapped
        relaid.append(spacing.REWRAP_NOTE)
    text = markdown.without_bold_lines(markdown.without_quoting(text))
    if title is None and running:
        # a PDF's running header may name (and date) the document where its body does not;
        # the date and address a browser prints on a page it saves name the printing
        named = (line for line in running if not chrome.printed_by_browser(line))
        title = next((line for line in named if any(c.isalpha() for c in line)), None)
    page = _Page(text, encoding, filename, title, is_html, left_out, running or [], tuple(relaid))
    if heads:
        # heads inside the entries the page's shape reads split them there; anywhere else
        # (a refused page, text set aside) the general reader reads the page with them
        try:
            return _read_shaped(page, heads)
        except (UnknownShape, _HeadsElsewhere):
            return _read_with_heads(page, heads)
    try:
        return _read_shaped(page)
    except UnknownShape as error:
        if not page.relaid:
            raise
        # the lines a refusal names are counted as the page was read
        notes = "\n".join(f"{note[:1].upper()}{note[1:]}." for note in page.relaid)
        raise UnknownShape(f"{str(error).rstrip()}\n{notes}", error.heads) from None


def _as_a_pdf_reads(text: str) -> tuple[str, list[str]]:
    """A text copied out of a PDF (a viewer's copy, pdftotext's) as a PDF read here is: its
    page breaks' lines out, so no entry runs on into "1/2" (and a note saying so), and its
    typesetter's breaks ("determi-" over "ned condition") mended."""
    notes = []
    if (unpaged := page_breaks.unpaginated(text)) is not None:
        text = unpaged[0]
        notes.append(page_breaks.note(unpaged[1]))
    if "-\n" in text:
        text = pdf_pages.unhyphenated(text, known.words())
    return text, notes


class _HeadsElsewhere(Exception):
    """A moderator's head stands on no entry's text of the shape's read."""


@dataclass(frozen=True)
class _Page:
    """A page as it is read: its text (HTML and Markdown's quoting taken off), how its bytes
    were decoded, the file's name for messages, the HTML page's title, and the HTML parts
    left out as the site's chrome."""

    text: str
    encoding: str
    filename: str | None
    title: str | None
    is_html: bool
    left_out: list[str]
    running: list[str]  # a PDF's running header and footer lines, left out
    relaid: tuple[str, ...] = ()  # how its lines were laid again before reading (notes)


def _read_shaped(page: _Page, heads: dict[int, str | None] | None = None) -> ReadDocument:
    """The page read by the shape that fits it best, or refused as holding no entry."""
    text, filename = page.text, page.filename
    share, words = known.game_word_share(text)
    if words >= known.OFF_GAME_WORDS and share < known.OFF_GAME_SHARE:
        raise UnknownShape(
            f"{_name(filename)}no entries found: this does not read as a page of the Star Trek "
            f"CCG's rules ({words} words, {share:.1%} of them the game's words such as card, "
            "player, dilemma, mission, personnel)."
        )
    if code := lookalike.code_names(text):
        raise UnknownShape(
            f"{_name(filename)}no entries found: this looks like a program's documentation: "
            f"it sets {len(code)} names as code ({', '.join(code[:3])}…), as no rules "
            "document does."
        )
    failures: list[str] = []
    for _, shape in ranked(text):
        try:
            parsed = shape.parse(text)
        except SourceFormatError as error:
            failures.append(f"{shape.name}: {error.reason}")
            continue
        if parsed.holds_none:
            raise UnknownShape(
                f"{_name(filename)}no entries found: this looks like {parsed.holds_none}."
            )
        if not parsed.entries:
            failures.append(f"{shape.name}: no entries found")
            continue
        if lookalike.answer_marks(parsed.entries):
            failures.append(f"{shape.name}: read an FAQ's marks (Q - …, A - …) as titles")
            continue
        _check_count(parsed, filename)
        if terms := lookalike.off_game(parsed.entries):
            count = len(parsed.entries)
            entries = "its entry uses" if count == 1 else f"its {count} entries use"
            few = count < lookalike.MIN_ENTRIES  # judged only where no title is the game's
            names = (
                "no title on it is a card or topic of the game"
                if few
                else ("the page hardly names its cards")
            )
            raise UnknownShape(
                f"{_name(filename)}no entries found: this does not read as the Star Trek CCG's "
                f"rules: {entries} {terms[0] or 'none'} of the game's terms in {terms[1]} "
                f"words (dilemma, mission, personnel, ship, affiliation…), and {names}: "
                f"another game's or subject's {'page' if few else 'glossary'}."
                f"{_heads_hint(parsed)}",
                _heads_of(parsed),
            )
        if listed := lookalike.card_list(parsed.entries):
            raise UnknownShape(
                f"{_name(filename)}no entries found: this looks like a card list: its entries' "
                f"texts open with the card's type ({_words_up_to(listed, 60)!r}), as card "
                f"data does, not a ruling.{_heads_hint(parsed)}",
                _heads_of(parsed),
            )
        if listed := lookalike.unsentenced(parsed.entries):
            raise UnknownShape(
                f"{_name(filename)}no entries found: this looks like a list (a deck list, an "
                f"index): its entries' texts end no sentence ({_words_up_to(listed, 60)!r}), as "
                f"rulings do.{_heads_hint(parsed)}",
                _heads_of(parsed),
            )
        if spoken := lookalike.commentary(parsed.entries):
            raise UnknownShape(
                f"{_name(filename)}no entries found: this looks like a review, a report or a "
                f"post: its text speaks in the first person ({spoken[:80]!r}), as rulings never "
                f"do.{_heads_hint(parsed)}",
                _heads_of(parsed),
            )
        if heads and (parsed := split_at_heads(parsed, text.split("\n"), heads)) is None:
            raise _HeadsElsewhere
        return _document(parsed, shape, page)
    if not any(f.endswith(": no entries found") for f in failures) and not failures:
        possible = listing.possible_heads(text)
        raise UnknownShape(_no_entries(text, filename, possible), possible)
    # a flip-book copy's lines as the general reader reads them with a moderator's heads
    possible = listing.possible_heads(glossary_pdf.without_markup(text))
    raise UnknownShape(_unknown(text, filename, failures, possible), possible)


def _read_with_heads(page: _Page, heads: dict[int, str | None]) -> ReadDocument:
    """The page read by the general reader with a moderator's heads: the moderator says
    where entries begin, so no shape is guessed and no page is refused for its form."""
    # a flip-book copy's lines, as its own shape reads them
    page = dataclasses.replace(page, text=glossary_pdf.without_markup(page.text))
    parsed = general.parse_with_heads(page.text, heads)
    return _document(parsed, by_name("general"), page)


def _document(parsed: Parsed, shape: Shape, page: _Page) -> ReadDocument:
    """The read document: ``parsed``'s entries with the warnings every shape owes, a note
    of the HTML chrome or the PDF's running lines left out, and the metadata the document
    prints."""
    text, filename, left_out = page.text, page.filename, page.left_out
    _check_count(parsed, filename)
    for entry in parsed.entries:
        entry.title = markdown.without_bold(markdown.heading_text(entry.title))
        labelled_kind(entry)
    warnings = parsed.warnings + check(parsed.entries, shape.unique_titles, text.split("\n"))
    if not shape.own_form:
        warnings += none_known(parsed.entries, warnings)
    if shown := [repr(_words_up_to(part, 40)) for part in left_out if part][:4]:
        warnings.append(
            ParseWarning(
                1,
                f"{len(left_out)} part{'s' if len(left_out) != 1 else ''} of the page that "
                "its HTML marks as the site's navigation, sidebar, footer or notices "
                f"{'were' if len(left_out) != 1 else 'was'} left out: "
                + " · ".join(shown)
                + (" · …" if len(left_out) > len(shown) else ""),
            )
        )
    warnings += [ParseWarning(1, note) for note in page.relaid]
    browser = [line for line in page.running if chrome.printed_by_browser(line)]
    if running := [line for line in page.running if line not in browser]:
        shown = " · ".join(repr(_words_up_to(line, 40)) for line in running[:4])
        warnings.append(
            ParseWarning(
                1,
                "the PDF's running header and footer, printed at the top or bottom of its "
                f"pages, were left out: {shown}" + (" · …" if len(running) > 4 else ""),
            )
        )
    if browser:
        shown = " · ".join(repr(_words_up_to(line, 40)) for line in browser[:2])
        warnings.append(
            ParseWarning(
                1,
                "what the browser that saved the page as a PDF printed at its top and foot "
                f"(the date, the address) was left out: {shown}",
            )
        )
    warnings.sort(key=lambda w: w.line)
    try:
        first = parsed.entries[0].line if parsed.entries else None
        # a page of one ruling is titled by its title; so is a card's page of several
        # rulings ("Colony": its erratum and its clarification), as it is of one: not by
        # the card's type line over them ("Neutral icon Facility - Station")
        one = len(parsed.entries) == 1 or shape.name == "card-page"
        lone = (
            parsed.entries[0].title if one and len({e.title for e in parsed.entries}) == 1 else None
        )
        metadata = guess_metadata(text, page.title, first, lone)
    except ImpossibleDate as error:  # the file and line, not Python's "day is out of range"
        raise UnreadableDocument(f"{filename or 'the document'}:{error.line}: {error}") from None
    return ReadDocument(
        shape=shape.name,
        encoding=page.encoding,
        entries=parsed.entries,
        warnings=warnings,
        metadata=metadata,
        parser=parsed.parser or shape.name,
        html=page.is_html,
    )


def _check_count(parsed: Parsed, filename: str | None) -> None:
    """Refuse more entries than one import may add, before the entries are judged."""
    if len(parsed.entries) > limits.MAX_ENTRIES:
        raise DocumentTooLarge(
            f"{_name(filename)}the document holds {len(parsed.entries):,} entries; one "
            f"import may add {limits.MAX_ENTRIES:,} at most. Split it into parts."
        )


def _check_size(text: str, filename: str | None, lines: bool = True) -> None:
    """Refuse text past the reader's limits before any shape looks at it."""
    if len(text) > limits.MAX_TEXT_CHARS:
        raise DocumentTooLarge(
            f"{_name(filename)}the document's text is {len(text):,} characters; a document may "
            f"hold {limits.MAX_TEXT_CHARS:,} at most. Split it into parts."
        )
    for number, line in enumerate(text.split("\n") if lines else (), 1):
        if len(line) > limits.MAX_LINE_CHARS:
            raise DocumentTooLarge(
                f"{_name(filename)}line {number} is {len(line):,} characters long; a line may "
                f"hold {limits.MAX_LINE_CHARS:,} at most. Is this a rules document?"
            )


def _heads_hint(parsed: Parsed) -> str:
    """How to import a refused look-alike that does hold rulings: its heads, named."""
    return (
        " If it does hold rulings, name the lines that open them as heads (a corrections item "
        f"such as {{line: {parsed.entries[0].line}, head: true}})."
    )


def _heads_of(parsed: Parsed) -> list[tuple[int, str]]:
    """A refused look-alike's entries as heads a moderator may name: (line, title)."""
    return [(entry.line, entry.title) for entry in parsed.entries[: listing.HEADS_OFFERED]]


def _words_up_to(text: str, size: int) -> str:
    """``text`` cut at a word's end before ``size`` characters, marked "…" where cut."""
    if len(text) <= size:
        return text
    cut = text.rfind(" ", 0, size)
    return (text[:cut] if cut > 0 else text[:size]) + " …"


def _name(filename: str | None) -> str:
    return f"{filename}: " if filename else ""


def _listed(possible: list[tuple[int, str]]) -> str:
    """The lines a refusal lists as opening like an entry, and how to name them heads."""
    if not possible:
        return ""
    # A card's name over an article's paragraph (an image's caption, a news heading) is
    # no ruling's head by itself: say that the project knows it, not that it does not.
    shown = possible[: listing.HEADS_LISTED]
    listed = "".join(
        f"\n  line {number}: {title[:80]}"
        + (" (a title the project knows)" if known.is_known(title) else "")
        for number, title in shown
    )
    if len(possible) > len(shown):  # a phone reads the top of a message: the rest, counted
        listed += f"\n  … and {len(possible) - len(shown)} more (the corrections draft offers each)"
    return (
        f"\nLines that open like an entry, not taken (nothing on the page confirms them as "
        f"rulings' heads):{listed}\nIf the page holds rulings under them, read it "
        "again with them as heads: a corrections file (or field) with items such as "
        f"{{line: {possible[0][0]}, head: true}}."
    )


def _no_entries(text: str, filename: str | None, possible: list[tuple[int, str]]) -> str:
    """The refusal of a page where no shape, the general reader included, finds an entry
    head: said as what the page looks like, never turned into an entry; ``possible``: the
    lines that open like an entry (:func:`listing.possible_heads`)."""
    first = [line.strip() for line in text.split("\n") if line.strip()][:3]
    quoted = "\n".join(f"  > {_words_up_to(line, 100)}" for line in first)
    # What to do comes before the list of shapes, by name only: on a phone the message is
    # read from the top, and a long one is cut at its end.
    return (
        f"{_name(filename)}no entries found: this looks like {general.diagnose(text)}. "
        f"Its first lines:\n{quoted}{_listed(possible)}{_run_together_advice(text)}\n"
        "Upload the page as it is published (saved as text or HTML) "
        "if it holds rulings, or ask a maintainer to add a shape for it.\n"
        f"Accepted shapes: {', '.join(shape.name for shape in SHAPES)}."
    )


# A line this long is text whose breaks were lost, not a paragraph: prose paragraphs of
# rules pages seen stay well under it, a PDF viewer's copy of a page runs 2,000 and more.
_RUN_ON_ADVISED = 1000


def _run_together_advice(text: str) -> str:
    """Advice for a refused page whose text runs together on long lines (a PDF viewer's
    copy that lost its line ends): a head inside a line cannot be named by its line."""
    lines = text.split("\n")
    long = [(n, len(line)) for n, line in enumerate(lines, 1) if len(line) >= _RUN_ON_ADVISED]
    if not long or sum(size for _, size in long) < len(text) / 2:
        return ""
    number, size = long[0]
    return (
        f"\nLine {number} runs {size:,} characters without a break: if the page holds rulings, "
        "its line ends were lost (as a PDF viewer's copy loses them); put a line break before "
        "each entry's title and upload it again."
    )


def _unknown(
    text: str, filename: str | None, failures: list[str], possible: list[tuple[int, str]]
) -> str:
    """The refusal of a page no shape reads, said as :func:`_no_entries` says its own: what
    the page opens with, what the shapes that tried found, what to do, then the shapes by
    name (a message is read from the top on a phone, and a long one is cut at its end)."""
    first = [line.strip() for line in text.split("\n") if line.strip()][:3]
    quoted = "\n".join(f"  > {_words_up_to(line, 100)}" for line in first)
    tried = "".join(f"\nTried as {failure}." for failure in failures)
    return (
        f"{_name(filename)}this document is in no shape the reader knows. Its first lines:\n"
        f"{quoted}{tried}{_listed(possible)}\n"
        "Upload the page as it is published (saved as text or HTML), or ask a maintainer to "
        "add a shape for it.\n"
        f"Accepted shapes: {', '.join(shape.name for shape in SHAPES)}."
    )
