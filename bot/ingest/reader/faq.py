"""``faq``: questions and answers under topics: ``TOPIC -- Q: … A: …``.

Each Q/A pair is an entry titled with its topic (a topic may have several); its text is the
question without its "Q:" marker, then the answer as printed ("A: …", a blank line before it
where the page breaks the line): the same text as the Decipher form below gives, so an FAQ
entry reads alike whichever form its page used. A topic line may stand alone ("DILEMMAS --")
with its pairs on the lines after it.

Decipher's own FAQ pages print the topic after the "Q:" instead: ``Q: TOPIC -- question`` or
``Q: TOPIC:`` with numbered questions on the lines after, then ``A:``; a table of contents of
bare ``Q: TOPIC`` lines comes first. Each such question is an entry titled with its topic;
its text is the question (without "Q: TOPIC") and the answer as printed.
"""

from __future__ import annotations

import re

from bot.ingest.parsers import ParseWarning
from bot.ingest.reader.common import join, lines_of, paragraphs
from bot.ingest.reader.model import Parsed, ReadEntry

_TOPIC = re.compile(r"^(\S.{0,80}?)\s++--\s*+(.*)$")
_Q = re.compile(r"(?:^|(?<=\s))Q:\s")
_A = re.compile(r"(?:^|(?<=\s))A:\s")
# "Q: AMANDA ROGERS -- Can …" / "Q: ARTIFACTS:" (Decipher's FAQ pages); "Q: TIMING" alone is
# a line of the table of contents.
# The topic may be quoted: 'Q: "THE COLON RULE" -- Can Countermanda be nullified…', and
# its small words left in lower case: "Q: DEVIDIAN DOOR and ITS TIME LIMIT -- Is …".
_SMALL = r"(?<= )(?:and|or|of|the|in|on|to|vs\.?|with|for|a|an) (?=[A-Z0-9\"“])"
_TOPIC_IN_CAPITALS = rf"[A-Z0-9\"“<>](?:[A-Z0-9 '’\"“”&/.,()!?<>=+-]|{_SMALL}){{1,60}}"
_Q_TOPIC = re.compile(rf"^Q:\s+({_TOPIC_IN_CAPITALS}?)\s*+(?:--|:)\s*(.*)$")
_TOC = re.compile(rf"^Q:\s+{_TOPIC_IN_CAPITALS}$")
_ANSWER = re.compile(r"^A:(?:\s|$)")
# Where a "Q:" starts within a line. Possessive, and only from the start of a run of spaces:
# "\s+(?=Q:)" tried from every space of a long run was quadratic.
_BEFORE_Q = re.compile(r"(?:^|(?<!\s)\s++)(?=Q:\s)")


def detect(text: str) -> float:
    rows = [line.strip() for _, line in lines_of(text)]
    if any(_Q_TOPIC.match(line) for line in rows) and any(_ANSWER.match(line) for line in rows):
        return 0.93
    topics = sum(
        1 for line in rows if (m := _TOPIC.match(line)) and (_Q.match(m.group(2)) or not m.group(2))
    )
    questions = sum(1 for line in rows if _Q.search(line))
    if topics and questions and any(_A.search(line) for line in rows):
        return 0.93
    return 0.0


def parse(text: str) -> Parsed:
    if any(_Q_TOPIC.match(line.strip()) for _, line in lines_of(text)):
        return _parse_q_topics(text)
    result = Parsed()
    topic: tuple[int, str] | None = None
    pairs: list[tuple[str, int, list[tuple[int, str]]]] = []  # (topic, line, body)
    for number, raw in lines_of(text):
        line = raw.strip()
        match = _TOPIC.match(line)
        if match and (not match.group(2) or _Q.match(match.group(2))):
            topic = (number, match.group(1).strip())
            line = match.group(2)
        if not line:
            if pairs:
                pairs[-1][2].append((number, ""))
            continue
        pieces = [p for p in _BEFORE_Q.split(line) if p.strip()]
        for piece in pieces:
            if question := _Q.match(piece):
                piece = piece[question.end() :].lstrip()  # the marker, not the question
                if topic is None:
                    result.warnings.append(
                        ParseWarning(number, f"a question before any topic: {piece[:60]!r}")
                    )
                    pairs.append(("", number, [(number, piece)]))
                else:
                    pairs.append((topic[1], number, [(number, piece)]))
            elif pairs and pairs[-1][0] == (topic[1] if topic else ""):
                pairs[-1][2].append((number, piece))
            else:
                result.warnings.append(
                    ParseWarning(number, f"text outside any question, ignored: {piece[:60]!r}")
                )
    for title, number, body in pairs:
        entry = ReadEntry(title=title, text=join([p for _, p in paragraphs(body)]), line=number)
        if not _A.search(entry.text):
            result.warnings.append(
                ParseWarning(number, f"question under {title!r} has no answer ('A:')")
            )
        result.entries.append(entry)
    return result


def _answered(body: list[tuple[int, str]]) -> bool:
    return any(_ANSWER.match(line) for _, line in body)


def _contents_dropped(
    pairs: list[tuple[str, int, list[tuple[int, str]]]], result: Parsed
) -> list[tuple[str, int, list[tuple[int, str]]]]:
    """``pairs`` without the page's table of contents: the questions before the first one
    answered, where a later one is ('Q: "THE COLON RULE": Can …' listed above the section);
    they are noted as contents, and the doubts raised inside them are withdrawn."""
    first = next((i for i, (_, _, body) in enumerate(pairs) if _answered(body)), 0)
    if not first:
        return pairs
    end = pairs[first][1]
    result.warnings = [w for w in result.warnings if not pairs[0][1] <= w.line < end]
    listed = [
        row
        for title, number, body in pairs[:first]
        for row in [
            (number, f"Q: {title}"),
            *[(n, line) for n, line in body if line and n != number],
        ]
    ]
    answers = [(n, line) for n, line in listed if _reads_as_answer(line)]
    if answers:
        # A contents list asks; a line that answers is a question and answer whose topic
        # this copy does not print: ruling text, never set aside under a note.
        number, answer = answers[0]
        result.warnings.append(
            ParseWarning(
                listed[0][0],
                f"{len(listed)} lines before the first answered question were not read: they "
                f"hold answers (line {number}: {answer[:60]!r}) under no topic this copy "
                "prints, so they cannot be imported from it; upload a copy that prints their "
                f"topics, or confirm that they are left out ({{line: {listed[0][0]}, "
                "confirm: true})",
                doubt=True,
            )
        )
    else:
        result.ignored(listed, "the page's table of contents (questions answered below)")
    return pairs[first:]


def _reads_as_answer(line: str) -> bool:
    """Whether a line set aside as contents answers rather than asks: it ends a sentence
    ("2. No, unless a special card allows it."), where a contents line asks or names a topic."""
    bare = line.strip()
    return bare.endswith((".", "!")) and not bare.startswith("Q:") and "?" not in bare


def _parse_q_topics(text: str) -> Parsed:
    result = Parsed()
    before: list[tuple[int, str]] = []
    current: tuple[str, int, list[tuple[int, str]]] | None = None
    pairs: list[tuple[str, int, list[tuple[int, str]]]] = []
    for number, raw in lines_of(text):
        line = raw.strip()
        match = _Q_TOPIC.match(line)
        if match and match.group(2) and not any(c.islower() for c in match.group(2)):
            # "Q: CAPTAIN'S LOG: DETERMINING ELIGIBILITY": a contents line with a sub-topic
            # (a question's text is a sentence)
            match = None
            if current is None:
                continue  # the table of contents, above the first question
        if match:
            current = (match.group(1).strip(), number, [])
            pairs.append(current)
            if match.group(2):
                current[2].append((number, match.group(2)))
        elif current is not None:
            if line.startswith("Q:"):  # the page's own question mark, not read as one
                result.warnings.append(
                    ParseWarning(
                        number,
                        f"a line inside the question under {current[0]!r} opens like a "
                        f"question ({line[:50]!r}) but was not read as one; check that no "
                        "question was read into the one before",
                        doubt=True,
                    )
                )
            current[2].append((number, line))
        elif _TOC.match(line):
            continue  # a line of the table of contents
        elif line:
            before.append((number, line))
    result.ignored(before, "text before the first question")
    pairs = _contents_dropped(pairs, result)
    for title, number, body in pairs:
        entry = ReadEntry(title=title, text=join([p for _, p in paragraphs(body)]), line=number)
        if not any(_ANSWER.match(p) for p in entry.text.split("\n\n")):
            result.warnings.append(
                ParseWarning(number, f"question under {title!r} has no answer ('A:')")
            )
        result.entries.append(entry)
    return result
