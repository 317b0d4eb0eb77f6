"""A modal's text fields: each under its label, and the check of what came back."""

from __future__ import annotations

from typing import Any

import discord


def labelled(modal: discord.ui.Modal, text: str, **field: Any) -> discord.ui.TextInput:
    """A text field added to ``modal`` under its label (``discord.ui.Label``, the form
    discord.py asks for since 2.6), returned to read its value."""
    text_input = discord.ui.TextInput(**field)
    modal.add_item(discord.ui.Label(text=text, component=text_input))
    return text_input


def overlong_field(modal: discord.ui.Modal) -> str | None:
    """The refusal for a submitted modal whose field is past its ``max_length`` (Discord's
    client enforces it; a raw payload need not), or None when every field fits."""
    for item in modal.children:
        field = item.component if isinstance(item, discord.ui.Label) else item
        if isinstance(field, discord.ui.TextInput) and field.max_length is not None:
            size = len(str(field.value or ""))
            if size > field.max_length:
                name = item.text if isinstance(item, discord.ui.Label) else "A field"
                return (
                    f"“{name}” holds {size:,} characters; it may hold "
                    f"{field.max_length:,}. Nothing was changed."
                )
    return None
