"""Who changes the data (:class:`Moderator`) and the refusals a change can meet: each a
:class:`ModerationError` whose message is fit to show the moderator — an edit made on a
version that changed meanwhile, an alias that would move from another ruling unconfirmed,
a document that does not exist, a ruling without a title or text (:func:`check_ruling`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot import validate
from bot.models import KINDS


class ModerationError(ValueError):
    """A change that cannot be made; the message is fit to show the moderator."""


class NotRead(ModerationError):
    """The reader refused a document. ``heads``: the lines it lists as opening like an entry,
    (line, title), which a moderator may name as heads and have the page read again."""

    def __init__(self, message: str, heads: list[tuple[int, str]] | None = None):
        super().__init__(message)
        self.heads = list(heads or ())


class StaleEdit(ModerationError):
    """The entry changed after the moderator opened it."""


class AliasRepoint(ModerationError):
    """The alias already leads to another ruling; moving it needs an explicit confirmation."""

    def __init__(self, alias: str, target: str, current: list[tuple[str, str]]):
        self.alias, self.target, self.current = alias, target, current
        where = ", ".join(f"{title} ({topic})" for topic, title in current)
        super().__init__(
            f"“{alias}” already leads to {where}. Re-pointing it moves it in every server: "
            "confirm the re-point to do it."
        )


class UnknownDocument(ModerationError):
    """``add`` named a document that is not in the store."""

    def __init__(self, document: str, suggestions: list[str]):
        self.document, self.suggestions = document, suggestions
        hint = f" Did you mean: {'; '.join(suggestions)}?" if suggestions else ""
        super().__init__(
            f"There is no document “{document}”.{hint} Name an existing document by its id "
            "or title (see /sources), or ask for a new document explicitly."
        )


@dataclass
class Moderator:
    id: str
    name: str


def check_ruling(title: str, edition: str, kind: str, text: str, date: str | None) -> None:
    """Refuse a ruling that lacks a title or text, or names an unknown edition, kind or date."""
    if not title.strip():
        raise ModerationError("A ruling needs a title.")
    if not validate.is_canonical(validate.edition, edition):
        raise ModerationError("Edition must be 1E or 2E.")
    if not validate.is_canonical(validate.entry_kind, kind):
        raise ModerationError(f"Kind must be one of: {', '.join(KINDS)}.")
    if not text.strip():
        raise ModerationError("A ruling needs its text.")
    if date and not validate.is_canonical(validate.iso_date, date):
        raise ModerationError("Dates are written YYYY-MM-DD.")
