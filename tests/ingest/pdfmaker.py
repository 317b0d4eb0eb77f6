"""A minimal PDF writer for the reader's tests: pages of text runs at given positions, in
the order given (so a test can draw a two-column page row by row, as some producers do).
Standard Type 1 font, WinAnsi encoding: no font file, no dependency."""

from __future__ import annotations

import re


def _escape(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


_MOVE = re.compile(r"\{(-?\d+)\}")


def _shown(text: str) -> bytes:
    """The text-showing operators of one run: "**term** – text" shows "term" in bold, then
    switches back to the regular font inside the same text object, as a word processor does
    (so a text extractor reports both parts at the run's starting position). "V{120}orn"
    shows its letters with a move between them (thousandths of an em, positive to the
    left), as a producer draws kerning or a justified line's wider spaces: one ``TJ``."""
    parts = text.split("**")
    out = b""
    for index, part in enumerate(parts):
        if not part:
            continue
        font = b"/F2" if index % 2 else b"/F1"
        if _MOVE.search(part):
            pieces = _MOVE.split(part)  # text, move, text, move, …
            shown = b" ".join(
                b"%d" % int(piece) if odd else b"(" + _escape(piece) + b")"
                for odd, piece in ((i % 2 == 1, p) for i, p in enumerate(pieces))
                if odd or piece
            )
            out += font + b" 9 Tf [" + shown + b"] TJ "
        else:
            out += font + b" 9 Tf (" + _escape(part) + b") Tj "
    return out


def make_pdf(pages: list[list[tuple[float, float, str]]], size=(612, 792), origin=(0, 0)) -> bytes:
    """Each page a list of (x, y, text) runs drawn in Helvetica 9 pt ("**…**" in bold)."""
    objects: list[bytes] = [b"", b""]  # 1: catalog, 2: pages (filled in below)
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                   b"/Encoding /WinAnsiEncoding >>")  # fmt: skip
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold "
                   b"/Encoding /WinAnsiEncoding >>")  # fmt: skip
    kids = []
    for runs in pages:
        stream = b"".join(
            b"BT %.1f %.1f Td " % (x, y) + _shown(text) + b"ET\n" for x, y, text in runs
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream")
        content = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [%d %d %d %d] "
            % (*origin, origin[0] + size[0], origin[1] + size[1])
            + b"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>" % content
        )
        kids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    return assemble(objects)


def assemble(objects: list[bytes]) -> bytes:
    """A PDF file of ``objects`` (object 1 the catalog), with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
