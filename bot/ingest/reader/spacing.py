"""A copy that sets a blank line after every line of the page (double-spaced): a file whose
line endings were converted twice ("\\r\\r\\n"), a viewer that copies each printed line as a
paragraph. Read as it stands, every wrapped line is a paragraph of its own, so a ruling's
sentence is cut where the page wrapped it and its second half read as another entry.

Doubling leaves its mark on the blank lines themselves: no two lines of text stand
together, and each run of k blank lines becomes 2k + 1, so every run is odd (a page's
paragraph break, one blank line, becomes three). A page typed with blank lines between its
paragraphs has lines of text together or runs of two blank lines; where it has neither, a
doubled copy still shows itself by its sentences carried on after a lone blank line (a line
of a wrapped paragraph's width that ends on no stop, the next in lower case), or by its
paragraph breaks doubled to three blank lines, which a page typed so seldom holds.

A copy wrapped a second time, narrower than the page (a mail program quoting it), is undone
too: each line's end that the second wrap cut off is joined back to it."""

from __future__ import annotations

from bot.ingest.parsers.text import ends_sentence

# A page this short is too little to tell its spacing by.
MIN_LINES = 8
# Doubling leaves no two lines of text together and no even run of blank lines; a copy may
# hold a few such places where it was edited after it was doubled.
STRAY_SHARE = 1 / 50
# What tells doubling from a page typed with a blank line between its paragraphs: at this
# share of its lone blank lines (and at this many at least), a sentence the page wrapped
# goes on, the line above as wide as a wrapped paragraph's lines are.
WRAPPED_SHARE = 0.3
MIN_WRAPS = 4
WRAP_WIDTH = 40
# Or a page of a paragraph a line shows its paragraph breaks doubled: runs of three blank
# lines or more, at this share of its runs.
BREAKS_SHARE = 0.1
# The note on a page read so, and on its refusal: the line numbers a preview names (and
# corrections give) count the lines as read.
NOTE = (
    "this copy sets a blank line after every line (double-spaced): it was read with those "
    "blank lines taken out, and the line numbers here count its lines without them"
)


def single_spaced(text: str) -> str | None:
    """``text`` as it was before doubling (each run of 2k + 1 blank lines k again, so its
    lines keep their numbers), where the copy is double-spaced; None where it is not.
    One pass over the lines."""
    lines = text.split("\n")
    texts = sum(1 for line in lines if line.strip())
    if texts < MIN_LINES:
        return None
    together = sum(1 for a, b in zip(lines, lines[1:], strict=False) if a.strip() and b.strip())
    runs: list[int] = []  # the runs of blank lines between two lines of text
    wrapped = 0  # lone blank lines inside a sentence the page wrapped
    run, before = 0, None
    for line in lines:
        if not line.strip():
            run += 1
            continue
        if before is not None and run:
            runs.append(run)
            wrapped += run == 1 and _wraps(before, line)
        before, run = line, 0
    stray = int(texts * STRAY_SHARE)
    if together > stray or sum(1 for r in runs if r % 2 == 0) > stray:
        return None
    lone, breaks = runs.count(1), sum(1 for r in runs if r >= 3)
    wraps = lone >= MIN_WRAPS and wrapped >= WRAPPED_SHARE * lone
    if not wraps and (breaks < MIN_WRAPS or breaks < BREAKS_SHARE * len(runs)):
        return None
    out: list[str] = []
    run = 0
    for line in lines:
        if line.strip():
            out.extend([""] * (run // 2))  # doubling made k blank lines 2k + 1
            out.append(line)
            run = 0
        else:
            run += 1
    out.extend([""] * (run // 2))
    return "\n".join(out)


def _wraps(line: str, after: str) -> bool:
    """``line`` was cut by wrapping inside its sentence, which ``after`` carries on: a line
    of a wrapped paragraph's width ends on no sentence's stop and the next opens in lower
    case (a page's lower-case term or list item opens a line after a sentence's stop)."""
    end = line.rstrip().rstrip("\"'”’)]*")
    return len(end) >= WRAP_WIDTH and end[-1:] not in _STOPS and after.lstrip()[:1].islower()


_STOPS = frozenset(".!?:;")


# A copy wrapped a second time, narrower (a mail program quoting a page wrapped at 80
# characters wraps it again at 72): each line of the page too long for the new width is cut
# in two, its end a short line of its own ("…the Neutral" / "Zone). See unopposed, cloaked"
# / "ship. *PERSONA"), so lines of the page's width and short ends alternate down every
# paragraph, and a title that opened a line of the page may open none. The new width is
# that of the copy's longest lines, 60 characters at least (narrower lines are a page's
# columns or lists, not a mail program's).
REWRAP_MIN_WIDTH = 60
# Told by many cut ends (at this many, and at this share of the lines wrapped at the new
# width), each most often followed by another line cut so (a page's paragraphs, wrapped
# once, end on a short line of their own that a blank line or a heading follows).
MIN_CUTS = 6
CUTS_SHARE = 0.6
CUT_ON_SHARE = 0.5
# A line of this many words at most, none in lower case, may be a heading (never joined).
HEADING_WORDS = 5
# A text shows a width it was wrapped at by this many lines wrapped at it.
MIN_WRAPPED = 3
# A line this share of the width a text was wrapped at long at least was filled by the
# wrap (a proportional font's lines fall short of it by a word at most); a shorter line
# ended where the text did, a paragraph's or a heading's end.
FILLED = 0.75
REWRAP_NOTE = (
    "this copy was wrapped again, narrower than the page (as a mail program wraps the lines "
    "it quotes): the end each line lost was joined back to it, and the line numbers here "
    "count the lines as joined"
)


def wrapped_twice(text: str) -> str | None:
    """``text`` with the end a second, narrower wrap cut off each line joined back to it,
    where the copy was wrapped twice; None where it was not. A few passes over the lines."""
    lines = text.split("\n")
    if sum(1 for line in lines if line.strip()) < MIN_LINES:
        return None
    width = wrap_width(lines)
    if width < REWRAP_MIN_WIDTH:
        return None
    wrapped = 0  # lines the copy wrapped at its width
    cuts: list[int] = []  # the cut ends: short lines after a wrapped line
    cut_on = 0  # cut ends followed by a line wrapped at the width too
    for index in range(len(lines) - 1):
        line, after = lines[index], lines[index + 1]
        if not wrapped_at(line, after, width):
            continue
        wrapped += 1
        following = lines[index + 2] if index + 2 < len(lines) else ""
        if _cut_end(after, following, width):
            cuts.append(index + 1)
            cut_on += wrapped_at(
                following, lines[index + 3] if index + 3 < len(lines) else "", width
            )
    inside = [index for index in cuts if index + 1 < len(lines) and lines[index + 1].strip()]
    if len(inside) < MIN_CUTS or len(inside) < CUTS_SHARE * wrapped:
        return None
    if cut_on < CUT_ON_SHARE * len(cuts):
        return None
    # A paragraph's last line is joined only where its paragraph goes on (a short line before
    # a blank one is as often one the page ended there), and a heading under a sentence's end
    # not at all ("…at Deep Space Nine." / "Gallamites": a page's own short line as likely)
    joined = {index for index in inside if not _heading_after_stop(lines[index - 1], lines[index])}
    out: list[str] = []
    for index, line in enumerate(lines):
        if index in joined and out:
            out[-1] = f"{out[-1].rstrip()} {line.strip()}"
        else:
            out.append(line)
    return "\n".join(out)


def wrap_width(lines: list[str]) -> int:
    """The width a text's lines were wrapped at: its longest lines', a stray longer line
    aside; 0 where they were not (fewer than :data:`MIN_WRAPPED` lines wrapped at it) or
    there is no text."""
    width = line_width(lines)
    # wrapped lines at that width, each carried on by the next: a page's one long line (a
    # menu, say) sets no width
    wraps = sum(
        1 for line, after in zip(lines, lines[1:], strict=False) if _wraps_at(line, after, width)
    )
    return width if wraps >= MIN_WRAPPED else 0


def line_width(lines: list[str]) -> int:
    """The width of a text's longest lines, a stray longer line aside (the longest, where
    there are too few lines to set one aside; 0 for no text)."""
    lengths = sorted(len(line.rstrip()) for line in lines if line.strip())
    if len(lengths) < MIN_LINES:
        return lengths[-1] if lengths else 0
    return lengths[int(0.95 * (len(lengths) - 1))]


def wrapped_at(line: str, after: str, width: int) -> bool:
    """Whether ``line`` was wrapped at ``width`` (:func:`wrap_width`; 0: the text is not
    wrapped) inside a paragraph that ``after`` carries on: it is near that width, and
    ``after``'s first word would not have fitted on it."""
    return width > 0 and _wraps_at(line, after, width)


def _wraps_at(line: str, after: str, width: int) -> bool:
    first = _first_word(after)
    return bool(first) and len(line.rstrip()) >= FILLED * width and not _fits(line, first, width)


def _heading_after_stop(line: str, after: str) -> bool:
    """Whether ``after`` may be a heading of its own under ``line``: a few words, none in
    lower case, with no stop, under a sentence's end."""
    words = after.split()
    return (
        ends_sentence(line.rstrip())
        and len(words) <= HEADING_WORDS
        and all(not word[:1].islower() for word in words)
        and not ends_sentence(after.rstrip())
    )


def _cut_end(line: str, after: str, width: int) -> bool:
    """``line`` is the short end of a line the wrap cut: under half the width, and what
    follows it (if anything) would have fitted after it, had the page's line gone on."""
    line = line.strip()
    if not line or len(line) > width / 2:
        return False
    return room_for_next(line, after, width)


def room_for_next(line: str, after: str, width: int) -> bool:
    """Whether the first word of ``after`` would have fitted after ``line`` on a line
    ``width`` long: the wrap did not cut ``line``, it ended there."""
    return _fits(line, _first_word(after), width)


def _first_word(text: str) -> str:
    """The first word of ``text`` ("" for a blank line)."""
    words = text.split(None, 1)
    return words[0] if words else ""


def _fits(line: str, word: str, width: int) -> bool:
    """Whether ``word`` would have fitted after ``line`` on a line ``width`` long."""
    return len(line.rstrip()) + 1 + len(word) <= width
