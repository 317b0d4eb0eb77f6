"""Terminal output of the ``rulings`` CLI, drawn with ``rich``.

On a terminal every line wraps to its width (``COLUMNS`` wins, as in any Unix tool); piped
output is not wrapped, so one record stays one line for grep (``COLUMNS`` still wraps it).
Markdown emphasis and lists in rulings are rendered; Lackey markup and icon codes in ruling
and card text become words (:func:`bot.markup.markup_to_words`), never in the CLI's own
text. When the output is not a terminal, ``NO_COLOR`` is set or ``TERM`` is ``dumb``, it is
plain text with no escape codes.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
from typing import Any, TextIO

from rich.console import Console
from rich.markdown import Markdown
from rich.padding import Padding
from rich.text import Text

from bot.answers.layout import ANSWER, Citation, answer_layout, best_matches, shortened
from bot.markup import excerpt, markup_to_words

MAX_WIDTH = 100  # long lines are hard to read even on a wide terminal
SUGGESTION_EXCERPT = 160  # characters of a suggestion's best part shown beneath it


UNWRAPPED = 10_000  # piped output: wider than any line of the data, so nothing wraps


def terminal_width(file: TextIO | None = None) -> int:
    """``COLUMNS`` if set; else the terminal's width (at most MAX_WIDTH); else, when ``file``
    is given and is no terminal, UNWRAPPED."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if file is not None and not _is_tty(file):
        return UNWRAPPED
    return min(MAX_WIDTH, shutil.get_terminal_size((88, 20)).columns)


def _is_tty(file: TextIO) -> bool:
    return getattr(file, "isatty", lambda: False)()


def wants_color(file: TextIO) -> bool:
    """Escape codes only for a terminal that can show them and a user who wants them."""
    return (
        _is_tty(file)
        and "NO_COLOR" not in os.environ
        and os.environ.get("TERM", "").lower() != "dumb"
    )


class Out:
    """One output stream: collects renderables, then writes them with trailing spaces cut."""

    def __init__(self, file: TextIO | None = None, width: int | None = None):
        self.file = file or sys.stdout
        self.width = width or terminal_width(self.file)
        self.color = wants_color(self.file)
        self._buffer = io.StringIO()
        self.console = Console(
            file=self._buffer,
            width=self.width,
            force_terminal=self.color,
            no_color=not self.color,
            color_system="standard" if self.color else None,
            highlight=False,
            emoji=False,
            markup=False,
            soft_wrap=False,
        )

    def line(self, text: str = "", style: str | None = None, indent: int = 0) -> None:
        """A line of the CLI's own text, as given: neither rich markup nor Lackey markup is
        read in it (ruling and card text goes through :func:`markup_to_words` first)."""
        rendered = Text(text, style=style or "")
        self.console.print(Padding(rendered, (0, 0, 0, indent)) if indent else rendered)

    def markdown(self, text: str, indent: int = 0) -> None:
        """Ruling text: Markdown rendered, Lackey markup and icon codes as words."""
        rendered = Markdown(markup_to_words(text))
        self.console.print(Padding(rendered, (0, 0, 0, indent)) if indent else rendered)

    def flush(self) -> None:
        text = "\n".join(line.rstrip() for line in self._buffer.getvalue().split("\n"))
        self._buffer = io.StringIO()
        self.console.file = self._buffer
        self.file.write(text)
        self.file.flush()


def _dated(item: dict[str, Any]) -> str:
    return item.get("date") or "undated"


def _label_text(item: dict[str, Any]) -> str:
    label = item.get("label") or item.get("status", "")
    return label


def _both_editions(out: Out, data: dict[str, Any]) -> None:
    if data.get("editions"):
        listed = "; ".join(f"{e['title']} ({e['edition']}) [{e['id']}]" for e in data["editions"])
        out.line(f"Both editions match: {listed}. Add --edition to pick one.", style="yellow")
        out.line()


SAME_NAME_LISTED = 10  # the other cards of one name listed by name before "and N more"


def _same_name(out: Out, same: list[dict[str, Any]] | None) -> None:
    """The other cards that bear the name asked for (never one picked in silence)."""
    if same:
        listed = "; ".join(
            f"{c['title']} ({c['edition']}) [{c['id']}]" for c in same[:SAME_NAME_LISTED]
        )
        more = len(same) - SAME_NAME_LISTED
        listed += f"; and {more} more" if more > 0 else ""
        out.line(f"Also named so: {listed}. Ask for one by its full name.", style="yellow")
        out.line()


def answer(out: Out, data: dict[str, Any]) -> None:
    """An answer in the one layout every front end shares (:mod:`bot.answers.layout`): the
    part that answers with the document and date it comes from, a divider, then the rest,
    each block under its own source; then the other versions and related rulings."""
    _both_editions(out, data)
    _same_name(out, data.get("same_name"))
    out.line(f"{data['title']} ({data['edition']})", style="bold")
    layout = answer_layout(data)
    for block in layout.blocks:
        out.line()
        if block is not layout.lead and layout.lead is not None and block is layout.rest[0]:
            out.line("─" * min(out.width, 40), style="dim")
            out.line()
        out.line(block.heading, style="bold")
        if block.cite is not None and block.cite.source:
            out.line(f"— {block.cite.line}", style="dim")
        if block.note:
            out.line(block.note, style="yellow")
        if block.text:
            out.markdown(block.text, indent=4 if block.role == ANSWER else 0)
    others = [v for v in data["versions"] if v["id"] != data["id"]]
    if others or data.get("also") or data.get("related"):
        out.line()
    if others:
        listed = "; ".join(f"{v['source']} ({_dated(v)}, {_label_text(v)})" for v in others)
        out.line(f"Other versions: {listed}. See `rulings history {data['id']}`.")
    if data.get("also"):
        out.line("Also: " + ", ".join(f"{a['title']} ({a['edition']})" for a in data["also"]))
    if data["related"] and data.get("kind") != "card":
        out.line("Related: " + ", ".join(r["title"] for r in data["related"]))


def edition_hint(other: dict[str, Any]) -> str:
    """A miss in the edition asked for that the other edition answers (see
    ``Rulings.other_edition_answer``)."""
    return (
        f"{other['query']!r} is a {other['edition']} ruling ({other['title']}); "
        f"there is none in {other['asked']}: try --edition {other['edition']}."
    )


def suggestions(out: Out, search: dict[str, Any]) -> None:
    """A miss as Discord shows it: the best matches with the part of each that fits, under
    its own document, plainly not an answer; then the other suggestions."""
    out.line(f"No confident match for {search['query']!r}.")
    if search.get("hint"):
        out.line(search["hint"])
    best = best_matches(search["results"])
    if best:
        out.line("Best matches (not certain), with the part of each that fits:")
        for number, r in enumerate(best, 1):
            part = r["part"]
            cite = Citation(part["source"], part.get("date"), None, part.get("status"))
            out.line()
            out.line(f"{number}. {r['title']} ({r['edition']})  [{r['id']}]", style="bold")
            out.line(f"— {cite.line}", style="dim", indent=3)
            out.line(shortened(part["text"]), indent=3)
    rest = [r for r in search["results"][:5] if r not in best]
    if rest:
        out.line()
        out.line("Did you mean:" if not best else "Others:")
        for r in rest:
            out.line(f"{r['title']} ({r['edition']})  [{r['id']}]", indent=2)
            if r.get("passage"):  # where it fits the question, to choose by
                out.line(excerpt(r["passage"]["text"], SUGGESTION_EXCERPT), style="dim", indent=4)


def search_results(out: Out, found: dict[str, Any]) -> None:
    for r in found["results"]:
        out.line(
            f"{r['score']:.2f}  {r['title']} ({r['edition']}) — {r['source']}, "
            f"{_dated(r)}  [{r['id']}]"
        )


def history(out: Out, data: dict[str, Any]) -> None:
    out.line(
        f"{data['title']} ({data['edition']}) — {len(data['versions'])} version(s), newest first",
        style="bold",
    )
    for v in data["versions"]:
        out.line()
        marker = "  <- in force then" if v.get("in_force") else ""
        detail = f": {v['label_detail']}" if v.get("label_detail") else ""
        out.line(f"[{_label_text(v)}{detail}] {v['source']} · {_dated(v)}  [{v['id']}]{marker}")
        if v.get("damaged_note"):
            out.line(v["damaged_note"], style="yellow", indent=4)
        out.markdown(v["text"] or "(text not in the bundled data)", indent=4)


def card(out: Out, data: dict[str, Any]) -> None:
    """A card: its text, its rulings, and the rulings that mention it."""
    _same_name(out, data.get("same_name"))
    out.line(f"{data['name']} ({data['edition']} {data['type']})", style="bold")
    out.line()
    out.line(markup_to_words(data.get("text")) or "(no game text in the card list)")
    rulings = data.get("rulings") or []
    mentions = data.get("mentioned_in") or []
    if not rulings:
        out.line()
        out.line(f"{data['name']} has no rulings in the bundled documents.")
    for r in rulings:
        out.line()
        out.line(
            f"Ruling: {r['title']} — {r.get('source', '')}, {_dated(r)}  [{r['id']}]", style="bold"
        )
        if r.get("damaged_note"):
            out.line(r["damaged_note"], style="yellow", indent=4)
        if r.get("text"):
            out.markdown(r["text"], indent=4)
    if mentions:
        out.line()
        out.line("Rulings that mention it:", style="bold")
        for r in mentions:
            out.line(f"{r['title']} — {r.get('source', '')}, {_dated(r)}  [{r['id']}]", indent=2)
