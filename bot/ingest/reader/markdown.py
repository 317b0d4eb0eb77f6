"""Markdown's marks on a page saved as Markdown: a heading's ``#`` marks are no part of its
title. Each test is a scan of one line: linear."""

from __future__ import annotations

from bot.ingest.reader.head_forms import inline


def heading_level(line: str) -> int:
    """The level of a Markdown heading line ("## Title": 2), 0 for any other line."""
    if not line.startswith("#"):
        return 0
    bare = line.lstrip("#")
    level = len(line) - len(bare)
    return level if level <= 6 and bare.startswith(" ") and bare.strip() else 0


def without_marks(line: str) -> str:
    """A Markdown heading's text without its marks ("### Reveal" is the title "Reveal"), as
    a page saved as Markdown prints a title line of its own."""
    if not heading_level(line):
        return line  # "#hashtag", "####### x": no heading
    heading = line.lstrip("#").strip().rstrip("#").rstrip()
    # A heading is a title line of its own: one that prints "A – B" keeps its marks, so the
    # dash is never read as a "Title – text" head ("# STCCG 1E - Glossary coverage").
    return line if inline(heading) is not None else heading
