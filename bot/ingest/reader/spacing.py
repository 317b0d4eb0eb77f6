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
paragraph breaks doubled to three blank lines, which a page typed so seldom holds."""

from __future__ import annotations

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
