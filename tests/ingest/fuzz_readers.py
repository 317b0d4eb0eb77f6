"""Adversarial documents for every reader and parser (used by test_fuzz_readers.py).

Run in a process of its own: each call's CPU time is measured there, and the test gives up on
a call that makes no progress at all (a pattern backtracking for days) instead of hanging.
"""

from __future__ import annotations

import functools
import random
import time
import traceback

from bot.ingest.reader.limits import MAX_LINE_CHARS

SEED = 3601
DOCUMENTS = 1_000
# Pieces the readers' patterns look for, and the ones the reported runaway lines were made of.
PIECES = (
    "  |", "|", "||", " ", "   ", "\t", "-", " - ", " – ", " -- ", "—", "**", "*", "\\*", "Q:",
    "A:", "Q: ", "A: ", "<br>", "<br />", "< br", "Title", "TERM", "a", "A", "x", "1", "1.",
    "a.", "•", "2020-01-01", "09/24/01", "See ", "(See X.)", "See **X**", "Replace the ",
    "Add the following", "Delete the ", ":", ".", ",", ";", "!", "?", "RULINGS",
    "Rulings Updated 09/24/01", "SIGNIFICANT RULINGS CHANGES", "[", "]", "[1E-", "{", "}", "(",
    ")", "'", '"', "“", "TermTaken from", "Taken from X.", "Current Rulings", "Glossary",
    "Applicable Cards:", "Example:", "For example:", "Erratum:", "and ", "or ", "icon", "non- ",
    "Home | Rules", "A - B - C - ", "ab - ac", "<p>", "</p>", "<table>", "<tr><td>", "</td>",
    "&amp;", "\u00a0", "é", "add ", "before the second paragraph", "*Section* ", " -- ",
    "Replace the ", "\n\n", "e.g. ", "(1) ", "Mr. ",
    # the marks other tools leave, and a paginated copy's page lines
    "[i]", "[/i]", "[url=x]", "[/url]", "[*]", "[/list]", "](", "![", "\\[", "\f", "\n1/2\n",
    "\nPage 3 of 9\n", "\nfile:///x\n", "\n11/29/26, 2:45 AM\n", "### ", "\n- ",
)  # fmt: skip


# Calls that run the others again (read_document: decoding, then read_text: every shape) or
# cost a parse tree: fed every fifth generated document and every reported shape.
SAMPLED = {"read_document", "html.to_text", "terms", "worded_terms", "expand_written"}


# Repeated to a whole line's length: the pieces the runaway patterns choked on.
LONG_UNITS = (
    " ", "\t", " - ", "Q: ", "add ", "*", ". ", "e.g. ", "Mr. ", "<br> ", "a. ", "[[", "A - b. ",
    "TITLE - Text. ",
)  # fmt: skip


# Repeated line after line: a page of a PDF, a feed, a table, paragraphs.
MANY_LINES = ("a\n", "A\n\n", "a –\n", "Q: a\n", "| a | b |\n", "TITLE - text.\n", "a <br />\n\n")


def _line(rng: random.Random) -> str:
    mode = rng.random()
    if mode < 0.4:  # a mixture
        return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 40)))
    if mode < 0.8:  # one piece repeated, then something that does not fit
        unit = rng.choice(PIECES)
        head = rng.choice(("", "a", "A", "|", "**", "Q: ", "Title ", "Add the "))
        tail = rng.choice(("", "x", "|", ".", "!", " 2020-01-01", "\x01"))
        return head + unit * rng.randint(2, 400) + tail
    a, b = rng.choice(PIECES), rng.choice(PIECES)  # two alternating
    return rng.choice(("", "a", "|")) + (a + b) * rng.randint(2, 200) + rng.choice(("", "x", "|"))


def documents() -> list[tuple[str, str]]:
    """(label, text): the seeded adversarial documents, then the shapes issue 36 reported."""
    rng = random.Random(SEED)
    out = []
    for number in range(DOCUMENTS):
        lines = []
        for _ in range(rng.randint(1, 12)):
            lines.append(_line(rng) if rng.random() < 0.85 else "")
        out.append((f"generated #{number}", "\n".join(lines)))
    longest = MAX_LINE_CHARS - 10
    out += [
        ("navigation: 40 '  |' segments", "a" + "  |" * 40 + "x"),
        ("navigation: 22 '  |' segments", "Home" + "  |" * 22 + "\n" + "x  |" * 22),
        ("row: 1,600 spaces", "| " + " " * 1600 + "x"),
        ("row: 1,600 spaces in both cells", "|" + " " * 1600 + "|" + " " * 1600 + "x|x"),
        ("a line of '|' and spaces as long as a line may be", "| " * (longest // 2)),
        ("'  |' as long as a line may be", "  |" * (longest // 3)),
        ("spaces as long as a line may be", "a" + " " * longest + "x"),
        ("'<br>' and spaces", "| a | " + " <br> " * (longest // 6) + "x"),
        ("dashes and spaces", "a" + " - " * (longest // 3) + "x"),
        ("a table of rows of spaces", "\n".join("| " + " " * 1500 + "| x" for _ in range(10))),
    ]
    # Work quadratic in the number of lines (or paragraphs) shows on many short ones.
    for unit in MANY_LINES:
        out.append((f"'{unit}' over and over", "Current Rulings\n" + unit * (20_000 // len(unit))))
    # A quadratic pattern that stays under the bound on short lines does not at full length.
    for unit in LONG_UNITS:
        line = "A" + unit * (longest // len(unit))
        out.append((f"'{unit}' as long as a line may be", f"{line[:longest]}\x01\n{line[:999]}"))
    return out


def _calls():
    """(name, function taking the text) for every reader, parser and text helper."""
    from bot.answers.compose import split_amendment
    from bot.ingest.parsers import PARSER_MODULES, get_parser
    from bot.ingest.parsers.text import amendment_of, see_also
    from bot.ingest.reader import SHAPES, read_document, read_text
    from bot.ingest.reader import html as html_reader
    from bot.markup import excerpt, markup_to_words
    from bot.models import AMEND_REPLACE_PART as PART
    from bot.models import replaced_section
    from bot.normalize import lexicon, normalize, quoted_phrases, terms, worded_terms
    from bot.search.passages import sentences, split_passages, windows

    calls = [("read_text", read_text), ("read_document", lambda t: read_document(t.encode()))]
    for shape in SHAPES:
        calls.append((f"{shape.name}.detect", shape.detect))
        calls.append((f"{shape.name}.parse", shape.parse))
    for name in PARSER_MODULES:
        parse = get_parser(name)
        calls.append((f"parser {name}", functools.partial(parse, path="<fuzz>")))
    calls += [
        ("html.to_text", lambda t: html_reader.to_text(f"<html><body><p>{t}</p></body></html>")),
        ("normalize", normalize),
        ("terms", terms),
        ("worded_terms", worded_terms),
        ("quoted_phrases", quoted_phrases),
        ("expand_written", lambda t: lexicon().expand_written(t)),
        ("markup_to_words", markup_to_words),
        ("excerpt", lambda t: excerpt(t, 200)),
        ("split_passages", split_passages),
        ("sentences", sentences),
        ("sentences typed", functools.partial(sentences, typed=True)),
        ("windows", windows),
        ("split_amendment", lambda t: split_amendment(t, [{"action": "add", "instruction": t}])),
        ("replaced_section", lambda t: replaced_section([{"action": PART, "instruction": t}])),
        ("see_also", see_also),
        ("amendment_of", amendment_of),
    ]
    return calls


def run(conn, first: int = 0, step: int = 1, current=None) -> None:
    """Feed documents[first::step] to every call. Send the call names first, then, as each
    document is done, its calls' CPU times and errors in one report; and keep the call under
    way in ``current`` (a shared array: the document's and the call's index), where the
    parent reads which call never returned."""
    from bot.ingest.parsers import SourceFormatError
    from bot.ingest.reader import UnknownShape, UnreadableDocument

    refusals = (SourceFormatError, UnknownShape, UnreadableDocument)
    calls = _calls()
    conn.send(("calls", [name for name, _ in calls]))
    for index, (label, text) in list(enumerate(documents()))[first::step]:
        report = []
        for number, (name, call) in enumerate(calls):
            if (
                name in SAMPLED
                and index % 10 >= 2
                and not label.startswith(("navigation", "row", "'", "a "))
            ):
                # The slowest (and most repetitive) calls: a fifth of the documents, the
                # first two of every ten, whichever test they are dealt to.
                continue
            if current is not None:
                current[0], current[1] = index, number
            began = time.process_time()
            error = None
            try:
                call(text)
            except refusals:
                pass
            except Exception:  # noqa: BLE001 - reported to the test, which fails on it
                error = traceback.format_exc(limit=4)
            report.append((name, time.process_time() - began, error))
        conn.send(("done", label, report))
    conn.send(("finished",))
    conn.close()
