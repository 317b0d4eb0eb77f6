"""Bytes to text: BOMs, UTF-8, a legacy single-byte code page, and refusing what is not text."""

from __future__ import annotations

import codecs
import html
import os
import re

import charset_normalizer

from bot.ingest.reader.model import UnreadableDocument
from bot.normalize import plain_spaces

_BOMS = [  # longest first: the UTF-32 LE BOM starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
]
# Formats people upload by mistake, by their first bytes.
_PDF = b"%PDF"
_MAGIC = [
    (b"PK\x03\x04", "a ZIP archive or Word/OpenDocument file: save it as plain text or HTML"),
    (b"\xd0\xcf\x11\xe0", "an old Word/Excel file: save it as plain text or HTML"),
    (b"{\\rtf", "an RTF file: save it as plain text or HTML"),
    (b"\x89PNG", "an image: upload the document's text, not a picture of it"),
    (b"\xff\xd8\xff", "an image: upload the document's text, not a picture of it"),
    (b"GIF8", "an image: upload the document's text, not a picture of it"),
]
# Control characters no text holds. The vertical tab is not one: it is a word processor's
# line break within a paragraph (Shift+Enter), as its copy gives it (see tidy).
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
_ADVICE = "Save the document as plain text (UTF-8) or as an HTML page and upload that."


def decode(content: bytes) -> tuple[str, str, list[str]]:
    """(text with "\\n" line endings, encoding name, the lines left out as a PDF's running
    header and footer), or raise :class:`UnreadableDocument`."""
    if not content.strip():
        raise UnreadableDocument(f"the file is empty. {_ADVICE}")
    if content.lstrip()[:4] == _PDF:
        text, running = pdf_text(content)
        return text, "pdf", running
    for magic, what in _MAGIC:
        if content.startswith(magic):
            raise UnreadableDocument(f"the file is {what}; it is not a text document.")
    text, encoding = _decode(content)
    if not text.strip():
        raise UnreadableDocument(f"the file holds no text. {_ADVICE}")
    controls = len(_CONTROL.findall(text))
    if "\x00" in text or controls > max(2, len(text) // 200):
        raise UnreadableDocument(f"the file looks binary (control bytes), not text. {_ADVICE}")
    return text, encoding, []


def _decode(content: bytes) -> tuple[str, str]:
    for bom, name in _BOMS:
        if content.startswith(bom):
            try:
                return content.decode(name), name
            except UnicodeDecodeError as error:
                raise UnreadableDocument(
                    f"the file starts with a {name.upper()} byte-order mark but is not valid "
                    f"{name.upper()} (byte {error.start}). {_ADVICE}"
                ) from None
    if b"\x00" in content[:4096]:
        raise UnreadableDocument(f"the file looks binary (NUL bytes), not text. {_ADVICE}")
    try:
        return content.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    best = charset_normalizer.from_bytes(content).best()
    if best is None:
        raise UnreadableDocument(f"the file is in no text encoding that could be read. {_ADVICE}")
    encoding = best.encoding
    # The rules documents are English: for a single-byte Western guess, the Windows Western
    # code page (smart quotes, dashes) is the one Word and old web pages wrote.
    if _single_byte(encoding) and encoding != "cp1252":
        try:
            return content.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            pass
    return str(best), encoding


def _single_byte(encoding: str) -> bool:
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        return False
    name = info.name
    return name.startswith(("cp", "latin", "iso8859", "mac", "koi8", "windows")) and not any(
        multi in name for multi in ("932", "936", "949", "950", "1361")
    )


def pdf_text(content: bytes) -> tuple[str, list[str]]:
    """The text layer of a PDF, page after page (pypdf: pure Python, no external tool), and
    the running header and footer lines left out of it."""
    import io
    import logging

    import pypdf
    from pypdf.errors import LimitReachedError, PyPdfError

    from bot.ingest.reader.limits import MAX_PDF_PAGES, MAX_TEXT_CHARS
    from bot.ingest.reader.pdf_lines import joined
    from bot.ingest.reader.pdf_pages import read_page, texts_of, unhyphenated

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its repairs are not our warnings
    try:
        reader = pypdf.PdfReader(io.BytesIO(content))
        if reader.is_encrypted and not reader.decrypt(""):
            raise UnreadableDocument(
                "the PDF is password-protected: save an unprotected copy, or its text, and "
                "upload that."
            )
        if len(reader.pages) > MAX_PDF_PAGES:
            raise UnreadableDocument(
                f"the PDF has {len(reader.pages):,} pages; a document may have {MAX_PDF_PAGES:,}."
            )
        read = []
        size = 0
        for page in reader.pages:
            read.append(read_page(page))
            size += len(read[-1].plain)
            if size > MAX_TEXT_CHARS:
                raise UnreadableDocument(
                    f"the PDF's text is over {MAX_TEXT_CHARS:,} characters; split it into parts."
                )
        # two columns read column by column; running headers and footers left out
        pages, running = texts_of(read)
    except (LimitReachedError, MemoryError) as error:
        # A compression bomb: a small file that unpacks to gigabytes.
        raise UnreadableDocument(
            f"the PDF unpacks to more than it may ({type(error).__name__}: {error}); it looks "
            "like a compression bomb. Copy its text out and upload that."
        ) from None
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError) as error:
        raise UnreadableDocument(
            f"the PDF could not be read ({type(error).__name__}: {error}). Copy its text out "
            "(or save it as text) and upload that."
        ) from None
    except RecursionError:
        raise UnreadableDocument(
            "the PDF's objects nest too deeply to read. Copy its text out and upload that."
        ) from None
    text = joined(pages)
    text = _WIDENED_SPACE.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n"))
    if "-\n" in text:
        from bot.ingest.reader.known import words

        # ligatures spelt out first: "de-" over "ﬁned" is the known word "defined"
        text = unhyphenated(text.translate(_SPELT_OUT), words())
    if not text.strip():
        raise UnreadableDocument(
            "the PDF has no text layer (a scan or pictures of pages): upload the document's "
            "text instead."
        )
    if len(_CONTROL.findall(text)) > max(2, len(text) // 200):
        # a font drawn by its glyphs' numbers, with no Unicode map to spell them: the
        # text layer holds those numbers, in any reader as in a PDF viewer's copy
        raise UnreadableDocument(
            "the PDF's text is its fonts' glyph numbers, not letters (its fonts carry no "
            "Unicode map). Upload the document's text, or a PDF printed from a word "
            "processor or a browser."
        )
    return text, [line.translate(_SPELT_OUT) for line in running]


# Spaces between words, more than one: a word processor justifies a line by widening its
# spaces, and pypdf spells the widening as a space of its own beside the one drawn ("not
# in  play"). Spaces at a line's end are kept (see :func:`tidy`). Linear: a run of spaces
# is matched from its first space only (the look-behind needs a letter before it).
_WIDENED_SPACE = re.compile(r"(?<=\S) {2,}(?=\S)")


# "Term<tab>– text", "Term –<tab>text": tabs beside a dash between words. A match starts
# only right after a word, so a run of tabs is tried once: linear.
_TAB_DASH = re.compile(r"(?<=\w)(?:\t+([–—-]) |( [–—])\t+)(?=\w)")


# A typesetter's ligatures, which a PDF's text layer (and a copy from a PDF viewer) spells
# as one character: "eﬀects", "modiﬁers", "Oﬃcer". Spelt out, the words are the words the
# project knows, and the ones a user searches for. And a word processor's list bullets
# from its symbol fonts, which such a copy spells as private-use characters: Symbol's
# bullet (U+F0B7), Wingdings' square and arrowhead (U+F0A7, U+F0D8), and its diamond
# (U+F076, the "❖" a 1E universal card is named with). Left so, a list's item read as text
# opening with an unknown character, and a short one as a title. And the rarer dashes as
# the dash every reader knows: the Unicode hyphen and a word processor's non-breaking one
# (U+2010, U+2011: "Enterprise‑E" was no card's name), the minus (U+2212) as typed, the
# figure dash and the horizontal bar (U+2012, U+2015) as en and em dashes: spaced between
# a title and its text, none was a head's dash.
_SPELT_OUT = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
     "\ufb05": "st", "\ufb06": "st",
     "\uf0b7": "•", "\uf0a7": "•", "\uf0d8": "•", "\uf076": "❖",
     "\u2010": "-", "\u2011": "-", "\u2212": "-", "\u2012": "–", "\u2015": "—"}
)  # fmt: skip


# A list's bullet as other tools draw it (a word processor's black circle and squares, the
# middle dot its plain-text export writes before a tab, a web page's triangles), at a
# line's start before a space or a tab: the bullet every reader knows, and one space.
# Not a diamond: ❖, ◆ and ♦ mark a card. Linear: anchored, one character of a class.
_BULLETS = re.compile(r"^([ \t]*)[•●○◦▪■□‣⁃∙·➢➤►▸](?:\t[ \t]*| (?=[^ \t]))", re.M)

# UTF-8 read as the Windows Western code page and saved again ("mojibake": "â€™" for "’",
# "â€“" for "–", "Â " for a no-break space), as an archived page or a mis-set site prints
# it: a UTF-8 sequence's lead byte, then the continuation bytes it announces, each as that
# code page (or Latin-1, for the bytes it leaves undefined) spells it. Linear: a match is a
# character and at most three more of a class.
_CONTINUATION = "\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc" + (
    "\u2013\u2014\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122"
)
_MOJIBAKE = re.compile(
    f"[\u00c2-\u00df][{_CONTINUATION}]"
    f"|[\u00e0-\u00ef][{_CONTINUATION}]{{2}}"
    f"|[\u00f0-\u00f4][{_CONTINUATION}]{{3}}"
)
# What a rules page's mis-decoded sequence stands for: Latin letters, punctuation, symbols
# (dashes, quotes, ™, bullets, ❖), a symbol font's private characters, ligatures. Not
# another script: "Ü“" in German quoting is a letter and a quote, not a Syriac letter.
_WRITTEN = re.compile("[\u00a0-\u024f\u2000-\u2bff\ue000-\uf8ff\ufb00-\ufb06]")


def _as_written(match: re.Match[str]) -> str:
    """The character a mis-decoded UTF-8 sequence stands for, or the text as it is where its
    bytes are no UTF-8 (a real "Ã" before a "©")."""
    try:
        written = b"".join(_byte(c) for c in match.group()).decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return match.group()
    return written if _WRITTEN.fullmatch(written) else match.group()


def _byte(char: str) -> bytes:
    """The byte the Windows Western code page spells as ``char`` (Latin-1's, for the five
    bytes it leaves undefined)."""
    try:
        return char.encode("cp1252")
    except UnicodeEncodeError:
        return bytes([ord(char)])  # U+0081, U+008D, U+008F, U+0090, U+009D: in the class


def unmangled(text: str) -> str:
    """``text`` with each UTF-8 sequence that was read as the Windows Western code page
    spelt as the character it stands for; what reads as no such sequence is left."""
    return _MOJIBAKE.sub(_as_written, text)


# The C1 control characters that Latin-1 makes of the Windows code page's quotes, dashes,
# ellipsis and bullet (a page read as ISO-8859-1 where Windows-1252 was meant): as that
# code page spells them, as browsers read such a page. NEL (U+0085) too: left a control,
# it would break a line inside a sentence.
_C1 = str.maketrans(
    {chr(byte): bytes([byte]).decode("cp1252") for byte in range(0x80, 0xA0)
     if byte not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}
)  # fmt: skip


# A character reference left in text ("Actions &ndash; Group", "Kira&#8217;s"): an RSS
# feed's escaped text, a page's source copied, a site that escaped its text twice. Only a
# reference closed by its ";" (HTML also reads "&para" without one, which text may hold).
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def references_read(text: str) -> str:
    """``text`` (a page's text, never its HTML source) with the character references left
    in it read as their characters."""
    if "&" not in text:
        return text
    return plain_spaces(_REFERENCE.sub(lambda reference: html.unescape(reference[0]), text))


# Line breaks other tools write: a word processor's line break within a paragraph (the
# vertical tab), Unicode's line and paragraph separators (a page layout program's, a
# script's). A paragraph separator is a blank line. (A NEL, U+0085, is no line break: a
# file read as Latin-1 where Windows' code page meant an ellipsis holds one; see _C1.)
_LINE_BREAKS = str.maketrans({"\x0b": "\n", "\u2028": "\n", "\u2029": "\n\n"})


def tidy(text: str) -> str:
    """``text`` as every reader expects it, whatever copied it: "\\n" line endings (and the
    line breaks of ``_LINE_BREAKS``), no byte order mark, UTF-8 read as the Windows code
    page spelt as meant (:func:`unmangled`, and ``_C1``), every space a plain space and no
    invisible mark, ligatures spelt out, every list's bullet a bullet, and no indentation
    that every line shares (a copy indented as a whole). Plain spaces inside and at the end
    of lines are left: a shape may read them (the 2E Current Rulings text ends a
    paragraph's last line with spaces). A tab beside a title's dash is a word processor's
    tab stop, not a table's cell: a space."""
    # a byte order mark goes with the invisible marks (plain_spaces)
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_LINE_BREAKS)
    text = unmangled(text).translate(_C1)  # after: mangled UTF-8 holds C1 bytes
    text = _BULLETS.sub(r"\1• ", plain_spaces(text.translate(_SPELT_OUT)))
    if "\t" in text:
        text = _TAB_DASH.sub(lambda m: f" {(m[1] or m[2]).strip()} ", text)
    lines = text.split("\n")
    margins = [line[: len(line) - len(line.lstrip(" \t"))] for line in lines if line.strip()]
    shared = os.path.commonprefix(margins)
    if not shared:
        return text
    return "\n".join(line[len(shared) :] if line.strip() else line for line in lines)
