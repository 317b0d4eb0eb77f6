"""Doubts about a page's entries taken together, which every shape owes (run by
:func:`bot.ingest.reader.common.check`): a title out of the page's alphabetical order or
out of its case, one that ends as a broken sentence does, one that runs on into its text,
one the entry before announces as its own sub-heading, a first entry whose head may be
a line of an entry cut off above, and one whose numbered steps skip. Each names the
corrections that settle it where there is one to name."""

from __future__ import annotations

import itertools
import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.reader.head_forms import BARE_EM_DASH, CONNECTIVES, SPACED_DASH, cites_a_title
from bot.ingest.reader.known import is_known
from bot.ingest.reader.model import ReadEntry
from bot.ingest.reader.numbered import list_number


def _order_key(title: str) -> str:
    """``title`` as a word-by-word order sorts it ("hand weapon" before "Handshake")."""
    return " ".join(title.casefold().lstrip("*\"'“‘").split())


def _letters_key(title: str) -> str:
    """``title`` as a letter-by-letter order sorts it, the Glossary's ("Handshake" before
    "hand weapon", "Talosian Cage" before "Tal Shiar"): its letters and figures only."""
    return "".join(c for c in title.casefold() if c.isalnum())


# The text's first words up to a dash: "affiliation restrictions – If a card allows …"
# (any space but a line break around it), or up to an em dash set with no space
# ("Sequence of Steps—Every action …")
_RUN_ON = re.compile(
    rf"^([^\s—]++(?:[^\S\n][^\s—]++){{0,3}})(?:[^\S\n]{SPACED_DASH}[^\S\n]|{BARE_EM_DASH})"
)


def title_runs_on(entries: list[ReadEntry]) -> list[ParseWarning]:
    """An entry whose text opens with a few words and a dash, under a short title ("battle"
    / "affiliation restrictions – If a card …"): a title broken across lines at its own
    dash ("battle – affiliation / restrictions – …", a flip-book's narrow column), read
    short. A doubt naming the longer title."""
    warnings: list[ParseWarning] = []
    for entry in entries:
        match = _RUN_ON.match(entry.text)
        if match is None or len(entry.title.split()) > 3:
            continue
        words = match.group(1)
        if (
            words.split()[0] in ("See", "see")
            or any(mark in words for mark in '.,:;!?()"“”')
            or words[:1].isupper() != (entry.title[:1].isupper())
        ):
            continue
        words = " ".join(words.split())
        longer = f"{entry.title} – {words}"
        warnings.append(
            ParseWarning(
                entry.line,
                f"entry {entry.title!r} opens its text with {words!r} and a dash: the title "
                f"may run on ({longer!r}; if so: {{line: {entry.line}, title: {longer}}})",
                doubt=True,
            )
        )
    return warnings


def drop_or_confirm(line: int) -> str:
    """The corrections that settle a doubt about whether a line opens an entry at all."""
    return f"no entry: {{line: {line}, drop: true}}; an entry: {{line: {line}, confirm: true}}"


def open_ended(entries: list[ReadEntry]) -> list[ParseWarning]:
    """An unknown title that ends in a connective ("replaced with: See timeline
    disruption.") is more likely the end of a sentence of an entry's text (cut at the top
    of a page) than a title: a doubt. A real term may end so ("equipped with"): a person
    decides."""
    return [
        ParseWarning(
            entry.line,
            f"entry {entry.title!r} ends in {entry.title.split()[-1]!r}, as a sentence "
            "broken off does: it may be the end of an entry's text read as a title "
            f"({drop_or_confirm(entry.line)})",
            doubt=True,
        )
        for entry in entries
        if len(words := entry.title.split()) > 1
        and words[-1].casefold() in CONNECTIVES
        and not is_known(entry.title)
    ]


def _in_capitals(title: str) -> bool:
    letters = [c for c in title if c.isalpha()]
    return len(letters) >= 2 and not any(c.islower() for c in letters)


def case_apart(entries: list[ReadEntry]) -> list[ParseWarning]:
    """On a page that prints its titles in capitals (Decipher's Current Rulings), the odd
    title that is not is more likely a line of an entry's text read as a head (a cross
    reference, "actions – step 1: initiation.", left at the top of a cut page) than an
    entry: a doubt. A page that mixes cases freely has no such rule to break."""
    capitals = [_in_capitals(e.title) for e in entries]
    odd = [e for e, upper in zip(entries, capitals, strict=True) if not upper]
    if sum(capitals) < 3 or len(odd) > max(1, sum(capitals) // 4):
        return []
    return [
        ParseWarning(
            entry.line,
            f"entry {entry.title!r} is not in capitals as the page's other "
            f"{sum(capitals)} titles are: it may be a line of an entry's text read as a "
            f"title ({drop_or_confirm(entry.line)})",
            doubt=True,
        )
        for entry in odd
    ]


def out_of_order(entries: list[ReadEntry]) -> list[ParseWarning]:
    """On a page whose known titles run in alphabetical order (a glossary, a Current Rulings
    Document), an unknown title out of that order is more likely a sub-heading inside an
    entry ("Response actions – …" under "actions") than an entry: a doubt."""
    # the orders the page's known titles keep: word by word, letter by letter, or both
    orders = [
        ([order(e.title) if is_known(e.title) else None for e in entries], order)
        for order in (_order_key, _letters_key)
    ]
    orders = [
        (known, order)
        for known, order in orders
        if len(keys := [key for key in known if key is not None]) >= 3 and keys == sorted(keys)
    ]
    if not orders:
        return []
    outside = [True] * len(entries)  # out of every order the page keeps
    for known, order in orders:
        # the nearest known title before and after each entry, in two passes
        before: list[str | None] = list(itertools.accumulate(known, lambda last, k: k or last))
        after = list(itertools.accumulate(reversed(known), lambda last, k: k or last))[::-1]
        for position, entry in enumerate(entries):
            key, last, following = order(entry.title), before[position], after[position]
            inside = (last is None or key >= last) and (following is None or key <= following)
            outside[position] = outside[position] and known[position] is None and not inside
    warnings: list[ParseWarning] = []
    for position, entry in enumerate(entries):
        if outside[position]:
            warnings.append(
                ParseWarning(
                    entry.line,
                    f"entry {entry.title!r} is out of the alphabetical order of the page's "
                    "other titles: it may be a sub-heading of the entry before; check that it "
                    "is an entry",
                    doubt=True,
                )
            )
    return warnings


def _last_sentence(text: str) -> str:
    """The last sentence of ``text`` (its final stop excluded from the search)."""
    tail = text[-400:].rstrip().rstrip('"”)').rstrip(".!?")
    cut = max(tail.rfind(". "), tail.rfind("! "), tail.rfind("? "), tail.rfind("\n"))
    return tail[cut + 1 :].strip()


def announced_sub_headings(entries: list[ReadEntry]) -> list[ParseWarning]:
    """An entry whose title the last sentence of the entry before announces ("…there are
    also response actions, which can take place on any player's turn." / "Response actions
    – …") is more likely that entry's sub-heading than an entry of its own: a doubt. A
    cross reference ("See points.") announces nothing."""
    warnings: list[ParseWarning] = []
    for before, entry in itertools.pairwise(entries):
        title = entry.title.casefold()
        if len(title.split()) < 2 or not before.text:
            continue
        sentence = _last_sentence(before.text)
        if sentence.startswith(("See ", "(See")) or title not in sentence.casefold():
            continue
        warnings.append(
            ParseWarning(
                entry.line,
                f"entry {entry.title!r} is named by the last sentence of the entry before "
                f"({before.title!r}): it may be that entry's sub-heading; check that it is an "
                "entry",
                doubt=True,
            )
        )
    return warnings


_STOP = re.compile(r"\.(?=\s|$)")  # a full stop before a space or the text's end


def _opens_with_a_title_alone(text: str) -> str | None:
    """The known title that is all of ``text``'s first sentence ("U.S.S. Enterprise-E. As
    with all keywords…"), else None. A title may hold full stops of its own ("U.S.S."):
    each full stop among the first words is tried."""
    head = text[:80]
    for stop in _STOP.finditer(head):
        if is_known(candidate := head[: stop.start()].strip()):
            return candidate
    return None


def opened_at_a_cut(entries: list[ReadEntry]) -> list[ParseWarning]:
    """The page's first entry, where its head may be a line of an entry cut off above (a
    copy starts anywhere): a quoted phrase in lower case the project does not know (the
    end of '…to the section "some additional notes"' over '- Your cards…'), or a term whose
    text is a known title alone ("commander: U.S.S. Enterprise-E.", a keyword quoted as an
    example in an entry's text), or a title whose text lists known titles and no more, a
    cross reference's list cut after its "See" (wrapped over lines, so no one line reads
    as one). A doubt: a quoted term and a term with a card's title as its whole first
    sentence are rare, and a person decides."""
    if not entries:
        return []
    first = entries[0]
    bare = first.title.strip('"“” ')
    if (
        first.title.startswith(('"', "“"))
        and bare[:1].islower()  # a heading in capitals ('"THE COLON RULE"') is no tail
        and not (is_known(first.title) or is_known(bare))
    ):
        why = "is a quoted phrase the project does not know: it may be the end of a cross "
        why += "reference cut off above"
    elif quoted := _opens_with_a_title_alone(first.text):
        why = f"has a title alone as its text's first sentence ({quoted!r}): it may be a "
        why += "card's keyword quoted in an entry cut off above"
    elif "\n" not in first.text and cites_a_title(f"{first.title} – {first.text}"):
        why = "and its text name titles the project knows and no more, as a cross "
        why += 'reference does: it may be the end of one, cut off above after its "See"'
    else:
        return []
    return [
        ParseWarning(
            first.line,
            f"the first entry's title {first.title!r} {why} ({drop_or_confirm(first.line)})",
            doubt=True,
        )
    ]


def _step_number(line: str) -> int | None:
    """The number of a step opening ``line`` ("3. The card's …"; "- 3. …" or "• 3. …" as a
    list's item prints it), else None."""
    return list_number(line.strip().lstrip("-•").lstrip())


def steps_out_of_sequence(entries: list[ReadEntry]) -> list[ParseWarning]:
    """An entry whose numbered steps skip some (1, 2, 5) or open past the first (a lone
    3): a copy of a page set in columns moved steps from one entry into another ("3. The
    card's cost-related game text activates." from "playing a card" into "exchange"), or
    lost them. Every entry is there under its title, but its text is not whole: a doubt.
    An entry that edits another may quote one of its steps: none is raised there."""
    warnings: list[ParseWarning] = []
    for entry in entries:
        numbers = [n for line in entry.text.split("\n") if (n := _step_number(line)) is not None]
        if not numbers or entry.amendments:
            continue
        if numbers[0] > 1:
            found = f"opens its numbered steps at {numbers[0]}"
        elif skip := next(
            ((a, b) for a, b in itertools.pairwise(numbers) if b not in (a + 1, 1)), None
        ):
            found = f"numbers its steps {skip[0]} then {skip[1]}"
        else:
            continue
        warnings.append(
            ParseWarning(
                entry.line,
                f"entry {entry.title!r} {found}: a copy of a page set in columns may have "
                "moved steps from one entry to another; check its text against the document "
                "(or upload the document itself), then confirm it as read "
                f"({{line: {entry.line}, confirm: true}})",
                doubt=True,
            )
        )
    return warnings


# A lettered step opening a line: "c. OP reveals …"
_LETTERED = re.compile(r"^(?:[-•]\s*)?([a-z])[.)] ")
_ROMAN = frozenset("ivx")  # "i." may open a list numbered in Roman figures
INTERLEAVED_STEPS = 2  # steps out of sequence that show a copy's columns interleaved


def steps_interleaved(
    lines: list[str], heads: set[int] | frozenset[int] = frozenset()
) -> list[ParseWarning]:
    """A copy whose numbered and lettered steps run out of sequence in several places
    ("c. OP reveals …" inside the preamble, "4. Overcoming Dilemmas" after "abilities"): a
    page set in columns copied with its columns interleaved, so entries' texts may be mixed
    beyond any one entry's steps. One doubt, at the first such step's line. The lines of
    ``heads`` (where entries open) are passed over: a list of entries numbers its items as
    it likes ("9) cannot: …", "11) Commander: …", a selection)."""
    out_of_sequence: list[int] = []
    number, letter = 0, ""
    for index, raw in enumerate(lines, 1):
        line = raw.strip()
        if index in heads:
            continue
        if (step := _step_number(line)) is not None:
            if step not in (1, number + 1):
                out_of_sequence.append(index)
            number, letter = step, ""
        elif lettered := _LETTERED.match(line):
            found = lettered[1]
            follows = letter and ord(found) == ord(letter) + 1
            if found != "a" and not follows and found not in _ROMAN:
                out_of_sequence.append(index)
            letter = found
    if len(out_of_sequence) < INTERLEAVED_STEPS:
        return []
    return [
        ParseWarning(
            out_of_sequence[0],
            f"{len(out_of_sequence)} numbered or lettered steps run out of sequence (lines "
            + ", ".join(str(n) for n in out_of_sequence[:5])
            + (", …" if len(out_of_sequence) > 5 else "")
            + "): this looks like a copy of a page set in columns, its columns "
            "interleaved, so the texts of its entries may be mixed; upload the document "
            "itself (its PDF) to read it whole, or check every entry and confirm "
            f"({{line: {out_of_sequence[0]}, confirm: true}})",
            doubt=True,
        )
    ]


# Run on every page's entries (announced_sub_headings only where titles are unique).
EVERY_PAGE = (
    out_of_order,
    case_apart,
    open_ended,
    title_runs_on,
    opened_at_a_cut,
    steps_out_of_sequence,
)
