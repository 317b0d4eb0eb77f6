"""Titles run into their text with no mark between them, as a copy of a page (or a PDF)
loses the bold face that set them apart ("Tongo To declare a move …"): where a known title
ends and its sentence starts, where an unknown one might, and a paragraph that opens so
inside an entry. Each test reads a line's first words: linear."""

from __future__ import annotations

from bot.ingest.reader.head_forms import CONNECTIVES, rest_ok, title_ok
from bot.ingest.reader.known import SMALL_WORDS, is_known, most_words_from

_MAX_GLUED_WORDS = 8


def run_into_text(line: str) -> tuple[str, str, bool] | None:
    """(title, text, known) of a title run into its text with no separator, as a copy of a
    page loses a bold title's face ("Tongo To declare a move for this incident, …"): the
    longest known title among the line's first words, then a sentence's start (a capital,
    then a word in lower case). "Power Points (PP) = …" or "Dilemma Resolution Guide (…"
    go on with a name, not a sentence. A title the project does not know is the words
    before the first such start that follows a word in lower case ("Holographic personnel
    Regardless of …"): where a title in capitals ends is not to be seen."""
    words = line[:400].split()
    if len(words) < 4:
        return None
    most = min(most_words_from(words[0]), _MAX_GLUED_WORDS, len(words) - 3)
    for count in range(most, 0, -1):
        if is_known(title := " ".join(words[:count])):
            # a title may end with a bracket or a sign ("playing an affiliation (non-Borg)",
            # "Reactor Core icon 🏭"); the Glossary's terms in lower case open their text so
            # too ("romantic partner a personnel is …")
            ends = (
                title[-1].isalnum()
                or (title[-1] == ")" and "(" in title)  # "Q)" is an answer's mark: no title
                or not title[-1].isascii()
            )
            lower = title[:1].islower()
            if ends and (text := _sentence_from(words, count, lower)):
                return title, text, True
            break  # "Captain Proton cards Several …": a longer title than the one known
    for count in range(1, min(_MAX_GLUED_WORDS, len(words) - 2)):
        last = words[count - 1]
        if last[:1].islower() and words[count].casefold() in SENTENCE_OPENERS:
            title, text = " ".join(words[:count]), _sentence_from(words, count)
            return (title, text, False) if text and _glued_title(title) else None
        if last[-1:] in ".,;:!?":
            return None  # "One hundred thirty-one cards. From …": a sentence, no title
    return None


# The words a rule's sentence opens with (articles, pronouns, conjunctions, prepositions):
# after a title the project does not know, a name in capitals ("Representative of Bajoran
# security officers …") goes on with the sentence, an opener starts the entry's text.
SENTENCE_OPENERS = frozenset(
    "a an the this these that those each every any all some several many most both either "
    "neither no none only once if when whenever while unless until although though because "
    "since as for in on at to by with from during after before under regardless instead "
    "you your it its they their there he she his her we our one".split()
)


def _glued_title(title: str) -> bool:
    """Whether ``title``, not known, can be a title run into its text: a title by its form,
    opening with no article or negation and ending with no small word ("refer to", "Sergey
    and", "A statement that a ship" are a sentence's words)."""
    words = title.casefold().split()
    return (
        title_ok(title)
        and words[0] not in ("a", "an", "the", "not", "no")
        and words[-1] not in SMALL_WORDS | CONNECTIVES
    )


def opens_glued(line: str) -> str | None:
    """The first words of ``line`` where they may be a title in capitals run into a
    sentence ("Commander This keyword used on …", "Continuing Mission Seed one on …"): two
    or more words in capitals, then one in lower case. Where the title ends is not to be
    seen: a moderator's question."""
    words = line[:400].split()[:8]
    run = 0
    while run < len(words) and (words[run][:1].isupper() or words[run][:1].isdigit()):
        run += 1
    if 2 <= run < len(words) and words[run][:1].islower():
        return " ".join(words[:run])
    return None


def _sentence_from(words: list[str], at: int, lower: bool = False) -> str | None:
    """The text from word ``at`` if it starts a sentence there: a capital (or a quote),
    then a word in lower case; or, after a title in lower case (``lower``), two words in
    lower case."""
    if at + 1 >= len(words):
        return None
    first, second = words[at], words[at + 1]
    opens = first[:1].isupper() or first[:1] in '"“' or lower and first[:1].islower()
    # the second word may open a quote ('Whenever “all skills” are added …')
    if not opens or not second.lstrip('"“‘(')[:1].islower():
        return None
    rest = " ".join(words[at:])
    # judged as a sentence opening in capitals would be, its case aside
    return rest if rest_ok(rest[:1].upper() + rest[1:]) else None
