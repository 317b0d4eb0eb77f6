"""Discord's limits on what a bot may send, as a validator.

The fake uses this to refuse bodies with 400/50035 the way Discord does; tests can also
call it directly on rendered output:

    assert limits.validate_message({"content": text, "embeds": [e.to_dict()]}) == []

Every public ``validate_*`` function returns a list of readable problems (empty if fine).
The ``*_problems`` variants return :class:`Problem` objects with a path, which the fake
turns into Discord's nested ``errors`` object.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Messages
CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
EMBED_TOTAL = 6000
# Components
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100
SELECT_PLACEHOLDER = 150
V2_COMPONENTS = 40
V2_TEXT_TOTAL = 4000
# Interactions
CHOICES = 25
CHOICE_NAME = 100
CHOICE_STRING_VALUE = 100
MODAL_TITLE = 45
MODAL_COMPONENTS = 5
TEXT_INPUT_LABEL = 45
TEXT_INPUT_VALUE = 4000
TEXT_INPUT_PLACEHOLDER = 100
LABEL_DESCRIPTION = 100
# Application commands
COMMANDS = 100
CONTEXT_MENU_COMMANDS = 5
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
COMMAND_TOTAL_CHARS = 4000

EPHEMERAL = 1 << 6
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
MESSAGE_FLAGS_ALLOWED = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2

# Discord's rule for chat-input names, narrowed as the style guide asks: lowercase \w, - and _.
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
SELECT_TYPES = {3, 5, 6, 7, 8}
V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}


@dataclass(frozen=True)
class Problem:
    """One violation: where (path into the body), Discord's error code, and what."""

    path: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{where}: {self.message}"


def _length(
    value: Any, path: tuple, limit: int, *, minimum: int = 0, what: str = ""
) -> list[Problem]:
    if value is None:
        return (
            [] if minimum == 0 else [Problem(path, "BASE_TYPE_REQUIRED", "This field is required")]
        )
    if not isinstance(value, str):
        return [
            Problem(path, "STRING_TYPE_CONVERT", f"Must be a string, got {type(value).__name__}")
        ]
    n = len(value)
    if n > limit:
        return [
            Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length ({what}{n})")
        ]
    # Discord trims before checking the minimum: "   " counts as empty.
    if minimum and len(value.strip()) < minimum:
        return [Problem(path, "BASE_TYPE_MIN_LENGTH", f"Must be {minimum} or more in length")]
    return []


def _text(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


# --- embeds ---------------------------------------------------------------------------


def _embed(embed: Any, path: tuple) -> tuple[list[Problem], int]:
    if not isinstance(embed, Mapping):
        return [Problem(path, "MODEL_TYPE_CONVERT", "Must be an object")], 0
    out: list[Problem] = []
    out += _length(embed.get("title"), (*path, "title"), EMBED_TITLE)
    out += _length(embed.get("description"), (*path, "description"), EMBED_DESCRIPTION)
    total = _text(embed.get("title")) + _text(embed.get("description"))
    fields = embed.get("fields") or []
    if len(fields) > EMBED_FIELDS:
        out.append(
            Problem(
                (*path, "fields"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {EMBED_FIELDS} or fewer in length ({len(fields)})",
            )
        )
    for i, field in enumerate(fields):
        fpath = (*path, "fields", i)
        if not isinstance(field, Mapping):
            out.append(Problem(fpath, "MODEL_TYPE_CONVERT", "Must be an object"))
            continue
        out += _length(field.get("name"), (*fpath, "name"), FIELD_NAME, minimum=1)
        out += _length(field.get("value"), (*fpath, "value"), FIELD_VALUE, minimum=1)
        total += _text(field.get("name")) + _text(field.get("value"))
    footer = embed.get("footer")
    if footer:
        out += _length(footer.get("text"), (*path, "footer", "text"), FOOTER_TEXT, minimum=1)
        total += _text(footer.get("text"))
    author = embed.get("author")
    if author:
        out += _length(author.get("name"), (*path, "author", "name"), AUTHOR_NAME, minimum=1)
        total += _text(author.get("name"))
    color = embed.get("color")
    if color is not None and not (isinstance(color, int) and 0 <= color <= 0xFFFFFF):
        out.append(Problem((*path, "color"), "NUMBER_TYPE_MAX", "Must be between 0 and 16777215"))
    return out, total


def embed_problems(embeds: Any, path: tuple = ("embeds",)) -> list[Problem]:
    if embeds is None:
        return []
    if not isinstance(embeds, list):
        return [Problem(path, "BASE_TYPE_ARRAY", "Must be an array")]
    out: list[Problem] = []
    if len(embeds) > EMBEDS:
        out.append(
            Problem(
                path, "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS} or fewer in length ({len(embeds)})"
            )
        )
    total = 0
    for i, embed in enumerate(embeds):
        problems, chars = _embed(embed, (*path, i))
        out += problems
        total += chars
    if total > EMBED_TOTAL:
        out.append(
            Problem(
                path,
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {EMBED_TOTAL} ({total})",
            )
        )
    return out


# --- components -----------------------------------------------------------------------


def _custom_id(item: Mapping, path: tuple, seen: set[str]) -> list[Problem]:
    cid = item.get("custom_id")
    out = _length(cid, (*path, "custom_id"), CUSTOM_ID, minimum=1)
    if isinstance(cid, str):
        if cid in seen:
            out.append(
                Problem(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Duplicate custom_id {cid!r}",
                )
            )
        seen.add(cid)
    return out


def _button(item: Mapping, path: tuple, seen: set[str]) -> list[Problem]:
    out: list[Problem] = []
    style = item.get("style")
    out += _length(item.get("label"), (*path, "label"), BUTTON_LABEL)
    if style == 5:
        if not item.get("url"):
            out.append(Problem((*path, "url"), "BASE_TYPE_REQUIRED", "A link button needs a url"))
        if item.get("custom_id") is not None:
            out.append(
                Problem(
                    (*path, "custom_id"),
                    "COMPONENT_INVALID",
                    "A link button cannot have a custom_id",
                )
            )
    elif style == 6:
        if not item.get("sku_id"):
            out.append(
                Problem((*path, "sku_id"), "BASE_TYPE_REQUIRED", "A premium button needs a sku_id")
            )
    elif style in (1, 2, 3, 4):
        out += _custom_id(item, path, seen)
        if item.get("url"):
            out.append(Problem((*path, "url"), "COMPONENT_INVALID", "Only link buttons have a url"))
    else:
        out.append(
            Problem(
                (*path, "style"),
                "BASE_TYPE_CHOICES",
                f"Value must be one of (1, 2, 3, 4, 5, 6), got {style!r}",
            )
        )
    if style != 6 and not item.get("label") and not item.get("emoji"):
        out.append(
            Problem(
                path,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )
        )
    return out


def _select(item: Mapping, path: tuple, seen: set[str]) -> list[Problem]:
    out = _custom_id(item, path, seen)
    out += _length(item.get("placeholder"), (*path, "placeholder"), SELECT_PLACEHOLDER)
    lo, hi = item.get("min_values", 1), item.get("max_values", 1)
    if not (isinstance(lo, int) and 0 <= lo <= 25):
        out.append(Problem((*path, "min_values"), "NUMBER_TYPE_MAX", "Must be between 0 and 25"))
    if not (isinstance(hi, int) and 1 <= hi <= 25):
        out.append(Problem((*path, "max_values"), "NUMBER_TYPE_MAX", "Must be between 1 and 25"))
    elif isinstance(lo, int) and lo > hi:
        out.append(
            Problem(
                (*path, "min_values"),
                "SELECT_COMPONENT_MIN_GREATER_THAN_MAX",
                "min_values exceeds max_values",
            )
        )
    if item.get("type") == 3:
        options = item.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS:
            out.append(
                Problem(
                    (*path, "options"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {SELECT_OPTIONS} in length ({len(options)})",
                )
            )
        if isinstance(hi, int) and options and hi > len(options):
            out.append(
                Problem(
                    (*path, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
                    "max_values exceeds the number of options",
                )
            )
        values: set[str] = set()
        for i, opt in enumerate(options):
            opath = (*path, "options", i)
            out += _length(opt.get("label"), (*opath, "label"), SELECT_OPTION_TEXT, minimum=1)
            out += _length(opt.get("value"), (*opath, "value"), SELECT_OPTION_TEXT, minimum=1)
            out += _length(opt.get("description"), (*opath, "description"), SELECT_OPTION_TEXT)
            if opt.get("value") in values:
                out.append(
                    Problem(
                        (*opath, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Duplicate option value",
                    )
                )
            values.add(opt.get("value"))
    return out


def _text_input(item: Mapping, path: tuple, seen: set[str], *, labelled: bool) -> list[Problem]:
    out = _custom_id(item, path, seen)
    if not labelled:
        out += _length(item.get("label"), (*path, "label"), TEXT_INPUT_LABEL, minimum=1)
    out += _length(item.get("placeholder"), (*path, "placeholder"), TEXT_INPUT_PLACEHOLDER)
    out += _length(item.get("value"), (*path, "value"), TEXT_INPUT_VALUE)
    for key in ("min_length", "max_length"):
        n = item.get(key)
        if n is not None and not (isinstance(n, int) and 0 <= n <= TEXT_INPUT_VALUE):
            out.append(
                Problem(
                    (*path, key), "NUMBER_TYPE_MAX", f"Must be between 0 and {TEXT_INPUT_VALUE}"
                )
            )
    return out


def _row(row: Any, path: tuple, seen: set[str], *, modal: bool = False) -> list[Problem]:
    if not isinstance(row, Mapping) or row.get("type") != 1:
        return [
            Problem(
                path,
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED" if modal else "UNION_TYPE_CHOICES",
                "Top-level components must be action rows (type 1)",
            )
        ]
    items = row.get("components") or []
    if not items:
        return [
            Problem((*path, "components"), "BASE_TYPE_MIN_LENGTH", "An action row cannot be empty")
        ]
    out: list[Problem] = []
    types = [i.get("type") for i in items if isinstance(i, Mapping)]
    if any(t in SELECT_TYPES or t == 4 for t in types) and len(items) > 1:
        out.append(
            Problem(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select menu or text input must be alone in its row",
            )
        )
    if len(items) > BUTTONS_PER_ROW:
        out.append(
            Problem(
                (*path, "components"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {BUTTONS_PER_ROW} or fewer in length ({len(items)})",
            )
        )
    for i, item in enumerate(items):
        ipath = (*path, "components", i)
        t = item.get("type") if isinstance(item, Mapping) else None
        if t == 2 and not modal:
            out += _button(item, ipath, seen)
        elif t in SELECT_TYPES:
            out += _select(item, ipath, seen)
        elif t == 4 and modal:
            out += _text_input(item, ipath, seen, labelled=False)
        else:
            where = "a modal" if modal else "a message action row"
            out.append(
                Problem(
                    (*ipath, "type"),
                    "UNION_TYPE_CHOICES",
                    f"Component type {t!r} is not allowed in {where}",
                )
            )
    return out


def _walk_v2(
    items: Sequence[Any], path: tuple, seen: set[str], counter: list[int]
) -> list[Problem]:
    """Components v2 layouts: count every component, total TextDisplay text, check buttons."""
    out: list[Problem] = []
    for i, item in enumerate(items):
        ipath = (*path, i)
        if not isinstance(item, Mapping):
            out.append(Problem(ipath, "MODEL_TYPE_CONVERT", "Must be an object"))
            continue
        counter[0] += 1
        t = item.get("type")
        if t == 10:
            counter[1] += _text(item.get("content"))
        elif t == 1:
            out += _row(item, ipath, seen)
            counter[0] += len(item.get("components") or [])
            continue
        elif t == 2:
            out += _button(item, ipath, seen)
        if t == 9 and item.get("accessory"):
            out += _walk_v2([item["accessory"]], (*ipath, "accessory"), seen, counter)
        if item.get("components") and t != 1:
            out += _walk_v2(item["components"], (*ipath, "components"), seen, counter)
    return out


def component_problems(
    components: Any, *, flags: int = 0, path: tuple = ("components",)
) -> list[Problem]:
    if components is None:
        return []
    if not isinstance(components, list):
        return [Problem(path, "BASE_TYPE_ARRAY", "Must be an array")]
    seen: set[str] = set()
    if flags & IS_COMPONENTS_V2:
        counter = [0, 0]
        out = _walk_v2(components, path, seen, counter)
        for i, c in enumerate(components):
            if isinstance(c, Mapping) and c.get("type") not in V2_TOP_LEVEL:
                out.append(
                    Problem(
                        (*path, i, "type"),
                        "UNION_TYPE_CHOICES",
                        f"Component type {c.get('type')!r} cannot be top-level",
                    )
                )
        if counter[0] > V2_COMPONENTS:
            out.append(
                Problem(
                    path,
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {V2_COMPONENTS} or fewer components in total ({counter[0]})",
                )
            )
        if counter[1] > V2_TEXT_TOTAL:
            out.append(
                Problem(
                    path,
                    "BASE_TYPE_MAX_LENGTH",
                    f"Text displays must total {V2_TEXT_TOTAL} or fewer characters ({counter[1]})",
                )
            )
        return out
    out = []
    if len(components) > ACTION_ROWS:
        out.append(
            Problem(
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {ACTION_ROWS} or fewer in length ({len(components)})",
            )
        )
    for i, row in enumerate(components):
        out += _row(row, (*path, i), seen)
    return out


# --- messages -------------------------------------------------------------------------


def message_problems(body: Any, path: tuple = ()) -> list[Problem]:
    """Limits of a message body (create or edit)."""
    if not isinstance(body, Mapping):
        return [Problem(path, "MODEL_TYPE_CONVERT", "Must be an object")]
    flags = body.get("flags") or 0
    out: list[Problem] = []
    if not isinstance(flags, int) or flags & ~MESSAGE_FLAGS_ALLOWED:
        out.append(
            Problem(
                (*path, "flags"),
                "MESSAGE_FLAGS_INVALID",
                f"Flags {flags!r} cannot be set by a bot here",
            )
        )
        flags = 0
    out += _length(body.get("content"), (*path, "content"), CONTENT)
    if flags & IS_COMPONENTS_V2:
        for key in ("content", "embeds", "poll", "stickers"):
            if body.get(key):
                out.append(
                    Problem(
                        (*path, key),
                        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                        f"{key} cannot be used with IS_COMPONENTS_V2",
                    )
                )
    out += embed_problems(body.get("embeds"), (*path, "embeds"))
    out += component_problems(body.get("components"), flags=flags, path=(*path, "components"))
    mentions = body.get("allowed_mentions")
    if mentions is not None:
        out += _allowed_mentions(mentions, (*path, "allowed_mentions"))
    return out


def _allowed_mentions(mentions: Any, path: tuple) -> list[Problem]:
    if not isinstance(mentions, Mapping):
        return [Problem(path, "MODEL_TYPE_CONVERT", "Must be an object")]
    out: list[Problem] = []
    parse = mentions.get("parse") or []
    for i, p in enumerate(parse):
        if p not in ("roles", "users", "everyone"):
            out.append(
                Problem(
                    (*path, "parse", i),
                    "BASE_TYPE_CHOICES",
                    f"Value must be one of ('roles', 'users', 'everyone'), got {p!r}",
                )
            )
    for key in ("users", "roles"):
        if key in parse and mentions.get(key):
            out.append(
                Problem(
                    (*path, "parse"),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f"parse {key!r} and a {key} list are mutually exclusive",
                )
            )
        if len(mentions.get(key) or []) > 100:
            out.append(
                Problem((*path, key), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length")
            )
    return out


def is_empty_message(body: Mapping[str, Any]) -> bool:
    """True if a new message would have nothing to show (Discord's 50006)."""
    return not any(
        body.get(k)
        for k in ("content", "embeds", "components", "attachments", "sticker_ids", "poll", "files")
    )


def validate_message(body: Any) -> list[str]:
    """Problems with a message body (content, embeds, components, allowed_mentions)."""
    return [str(p) for p in message_problems(body)]


# --- interaction callbacks ------------------------------------------------------------


def choice_problems(choices: Any, path: tuple = ("choices",)) -> list[Problem]:
    if not isinstance(choices, list):
        return [Problem(path, "BASE_TYPE_ARRAY", "Must be an array")]
    out: list[Problem] = []
    if len(choices) > CHOICES:
        out.append(
            Problem(
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {CHOICES} or fewer in length ({len(choices)})",
            )
        )
    for i, choice in enumerate(choices):
        cpath = (*path, i)
        if not isinstance(choice, Mapping):
            out.append(Problem(cpath, "MODEL_TYPE_CONVERT", "Must be an object"))
            continue
        out += _length(choice.get("name"), (*cpath, "name"), CHOICE_NAME, minimum=1)
        for lang, text in (choice.get("name_localizations") or {}).items():
            out += _length(text, (*cpath, "name_localizations", lang), CHOICE_NAME, minimum=1)
        value = choice.get("value")
        if isinstance(value, str):
            out += _length(value, (*cpath, "value"), CHOICE_STRING_VALUE)
        elif isinstance(value, bool) or not isinstance(value, int | float):
            out.append(
                Problem(
                    (*cpath, "value"), "BASE_TYPE_REQUIRED", "Must be a string, integer or number"
                )
            )
    return out


def validate_choices(choices: Any) -> list[str]:
    """Problems with an autocomplete result or a command option's choices."""
    return [str(p) for p in choice_problems(choices)]


def modal_problems(data: Any, path: tuple = ("data",)) -> list[Problem]:
    if not isinstance(data, Mapping):
        return [Problem(path, "MODEL_TYPE_CONVERT", "Must be an object")]
    out = _length(data.get("title"), (*path, "title"), MODAL_TITLE, minimum=1)
    out += _length(data.get("custom_id"), (*path, "custom_id"), CUSTOM_ID, minimum=1)
    comps = data.get("components") or []
    cpath = (*path, "components")
    if not 1 <= len(comps) <= MODAL_COMPONENTS:
        out.append(
            Problem(
                cpath,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MODAL_COMPONENTS} in length ({len(comps)})",
            )
        )
    seen: set[str] = set()
    for i, comp in enumerate(comps):
        ipath = (*cpath, i)
        t = comp.get("type") if isinstance(comp, Mapping) else None
        if t == 1:
            out += _row(comp, ipath, seen, modal=True)
        elif t == 18:
            out += _length(comp.get("label"), (*ipath, "label"), TEXT_INPUT_LABEL, minimum=1)
            out += _length(comp.get("description"), (*ipath, "description"), LABEL_DESCRIPTION)
            inner = comp.get("component") or {}
            if inner.get("type") == 4:
                out += _text_input(inner, (*ipath, "component"), seen, labelled=True)
            elif inner.get("type") in SELECT_TYPES:
                out += _select(inner, (*ipath, "component"), seen)
            elif inner.get("type") not in (19,):
                out.append(
                    Problem(
                        (*ipath, "component"),
                        "UNION_TYPE_CHOICES",
                        f"Component type {inner.get('type')!r} is not allowed in a label",
                    )
                )
        elif t != 10:
            out.append(
                Problem(
                    (*ipath, "type"),
                    "UNION_TYPE_CHOICES",
                    f"Component type {t!r} is not allowed in a modal",
                )
            )
    return out


def callback_problems(body: Any) -> list[Problem]:
    """Problems with an interaction callback body `{"type": N, "data": {...}}`."""
    if not isinstance(body, Mapping):
        return [Problem((), "MODEL_TYPE_CONVERT", "Must be an object")]
    t = body.get("type")
    data = body.get("data")
    if t in (4, 7):
        return message_problems(data or {}, ("data",))
    if t == 8:
        return choice_problems((data or {}).get("choices"), ("data", "choices"))
    if t == 9:
        return modal_problems(data)
    if t in (1, 5, 6):
        flags = (data or {}).get("flags") or 0
        if flags & ~EPHEMERAL:
            return [
                Problem(
                    ("data", "flags"),
                    "MESSAGE_FLAGS_INVALID",
                    "Only EPHEMERAL may be set on a deferral",
                )
            ]
        return []
    return [Problem(("type",), "BASE_TYPE_CHOICES", f"Unknown interaction callback type {t!r}")]


def validate_callback(body: Any) -> list[str]:
    return [str(p) for p in callback_problems(body)]


# --- application commands ---------------------------------------------------------------


def _check_name(name: Any, path: tuple, *, chat_input: bool) -> list[Problem]:
    if not isinstance(name, str):
        return [Problem(path, "BASE_TYPE_REQUIRED", "A name is required")]
    if chat_input:
        if not COMMAND_NAME.match(name):
            return [
                Problem(
                    path,
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Invalid name {name!r}: must match ^[-_\\w]{{1,32}}$",
                )
            ]
        if name != name.lower():
            return [
                Problem(
                    path,
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Invalid name {name!r}: must be lowercase",
                )
            ]
        return []
    return _length(name, path, 32, minimum=1)


def _localized(obj: Mapping, key: str, path: tuple, limit: int, *, name: bool) -> list[Problem]:
    out: list[Problem] = []
    for lang, text in (obj.get(f"{key}_localizations") or {}).items():
        lpath = (*path, f"{key}_localizations", lang)
        out += (
            _check_name(text, lpath, chat_input=True)
            if name
            else _length(text, lpath, limit, minimum=1)
        )
    return out


def _chars(obj: Mapping) -> int:
    """Characters Discord counts towards a command's 4000 total."""
    n = _text(obj.get("name")) + _text(obj.get("description"))
    for choice in obj.get("choices") or []:
        n += _text(choice.get("name")) + len(str(choice.get("value", "")))
    return n + sum(_chars(o) for o in obj.get("options") or [])


def _command_options(options: Any, path: tuple, *, depth: int) -> list[Problem]:
    if options is None:
        return []
    if not isinstance(options, list):
        return [Problem(path, "BASE_TYPE_ARRAY", "Must be an array")]
    out: list[Problem] = []
    if len(options) > COMMAND_OPTIONS:
        out.append(
            Problem(
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {COMMAND_OPTIONS} or fewer in length ({len(options)})",
            )
        )
    names: set[str] = set()
    seen_optional = False
    kinds = {o.get("type") in (1, 2) for o in options if isinstance(o, Mapping)}
    if len(kinds) > 1:
        out.append(
            Problem(
                path,
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Subcommands cannot be mixed with other options",
            )
        )
    for i, opt in enumerate(options):
        opath = (*path, i)
        if not isinstance(opt, Mapping):
            out.append(Problem(opath, "MODEL_TYPE_CONVERT", "Must be an object"))
            continue
        t = opt.get("type")
        out += _check_name(opt.get("name"), (*opath, "name"), chat_input=True)
        out += _length(
            opt.get("description"), (*opath, "description"), COMMAND_DESCRIPTION, minimum=1
        )
        out += _localized(opt, "name", opath, 32, name=True)
        out += _localized(opt, "description", opath, COMMAND_DESCRIPTION, name=False)
        if opt.get("name") in names:
            out.append(
                Problem(
                    (*opath, "name"),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    f"Duplicate option name {opt.get('name')!r}",
                )
            )
        names.add(opt.get("name"))
        if t not in range(1, 12):
            out.append(Problem((*opath, "type"), "BASE_TYPE_CHOICES", f"Unknown option type {t!r}"))
            continue
        if t == 2 and depth != 0:
            out.append(
                Problem(
                    (*opath, "type"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "A subcommand group may only be at the top level",
                )
            )
        if t == 1 and depth > 1:
            out.append(
                Problem(
                    (*opath, "type"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Subcommands nest at most inside one group",
                )
            )
        if t in (1, 2):
            if t == 2 and any(
                isinstance(o, Mapping) and o.get("type") != 1 for o in opt.get("options") or []
            ):
                out.append(
                    Problem(
                        (*opath, "options"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "A group may only contain subcommands",
                    )
                )
            if opt.get("required"):
                out.append(
                    Problem(
                        (*opath, "required"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "Subcommands cannot be required",
                    )
                )
            out += _command_options(opt.get("options"), (*opath, "options"), depth=depth + 1)
            continue
        if opt.get("options"):
            out.append(
                Problem(
                    (*opath, "options"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Only subcommands and groups have options",
                )
            )
        if opt.get("required"):
            if seen_optional:
                out.append(
                    Problem(
                        (*opath, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = opt.get("choices")
        if choices:
            if t not in (3, 4, 10):
                out.append(
                    Problem(
                        (*opath, "choices"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "Only string, integer and number options have choices",
                    )
                )
            if opt.get("autocomplete"):
                out.append(
                    Problem(
                        (*opath, "autocomplete"),
                        "APPLICATION_COMMAND_AUTOCOMPLETE_AND_CHOICES",
                        "autocomplete cannot be combined with choices",
                    )
                )
            out += choice_problems(choices, (*opath, "choices"))
        if opt.get("autocomplete") and t not in (3, 4, 10):
            out.append(
                Problem(
                    (*opath, "autocomplete"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Only string, integer and number options autocomplete",
                )
            )
        for key in ("min_value", "max_value"):
            if opt.get(key) is not None and t not in (4, 10):
                out.append(
                    Problem(
                        (*opath, key),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        f"{key} is only for integer and number options",
                    )
                )
        for key in ("min_length", "max_length"):
            n = opt.get(key)
            if n is None:
                continue
            if t != 3:
                out.append(
                    Problem(
                        (*opath, key),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        f"{key} is only for string options",
                    )
                )
            elif not (isinstance(n, int) and (0 if key == "min_length" else 1) <= n <= 6000):
                out.append(
                    Problem((*opath, key), "NUMBER_TYPE_MAX", f"{key} must be within 0-6000")
                )
    return out


def command_problems(commands: Any) -> list[Problem]:
    """Problems with a bulk-overwrite body (a list of application commands)."""
    if not isinstance(commands, list):
        return [Problem((), "BASE_TYPE_ARRAY", "Must be an array")]
    out: list[Problem] = []
    by_type: dict[int, set[str]] = {}
    for i, cmd in enumerate(commands):
        path: tuple = (i,)
        if not isinstance(cmd, Mapping):
            out.append(Problem(path, "MODEL_TYPE_CONVERT", "Must be an object"))
            continue
        t = cmd.get("type", 1)
        if t not in (1, 2, 3, 4):
            out.append(Problem((*path, "type"), "BASE_TYPE_CHOICES", f"Unknown command type {t!r}"))
            continue
        chat = t == 1
        name = cmd.get("name")
        out += _check_name(name, (*path, "name"), chat_input=chat)
        out += _localized(cmd, "name", path, 32, name=chat)
        if chat:
            out += _length(
                cmd.get("description"), (*path, "description"), COMMAND_DESCRIPTION, minimum=1
            )
            out += _localized(cmd, "description", path, COMMAND_DESCRIPTION, name=False)
            out += _command_options(cmd.get("options"), (*path, "options"), depth=0)
            if _chars(cmd) > COMMAND_TOTAL_CHARS:
                out.append(
                    Problem(
                        path,
                        "APPLICATION_COMMAND_TOO_LARGE",
                        f"Command exceeds {COMMAND_TOTAL_CHARS} characters ({_chars(cmd)})",
                    )
                )
        elif t in (2, 3):
            if cmd.get("description"):
                out.append(
                    Problem(
                        (*path, "description"),
                        "APPLICATION_COMMAND_INVALID_DESCRIPTION",
                        "Context menu commands have an empty description",
                    )
                )
            if cmd.get("options"):
                out.append(
                    Problem(
                        (*path, "options"),
                        "APPLICATION_COMMAND_INVALID_OPTIONS",
                        "Context menu commands take no options",
                    )
                )
        names = by_type.setdefault(t, set())
        if name in names:
            out.append(
                Problem(
                    (*path, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Duplicate command name {name!r}",
                )
            )
        names.add(name)
        perms = cmd.get("default_member_permissions")
        # Discord documents a string of digits; it also accepts the integer discord.py sends.
        digits = isinstance(perms, str) and perms.isdigit()
        if perms is not None and not digits and not (isinstance(perms, int) and perms >= 0):
            out.append(
                Problem(
                    (*path, "default_member_permissions"),
                    "STRING_TYPE_CONVERT",
                    "Must be a string of digits or null",
                )
            )
        for key, allowed in (("contexts", {0, 1, 2}), ("integration_types", {0, 1})):
            values = cmd.get(key)
            if values is not None and (
                not isinstance(values, list) or any(v not in allowed for v in values)
            ):
                out.append(
                    Problem(
                        (*path, key),
                        "BASE_TYPE_CHOICES",
                        f"Values must be within {sorted(allowed)}",
                    )
                )
    for t, limit in ((1, COMMANDS), (2, CONTEXT_MENU_COMMANDS), (3, CONTEXT_MENU_COMMANDS)):
        count = sum(1 for c in commands if isinstance(c, Mapping) and c.get("type", 1) == t)
        if count > limit:
            out.append(
                Problem(
                    (),
                    "APPLICATION_COMMANDS_TOO_MANY",
                    f"At most {limit} commands of type {t} ({count})",
                )
            )
    return out


def validate_command_payload(commands: Any) -> list[str]:
    """Problems with a list of application commands, as sent to `PUT .../commands`."""
    return [str(p) for p in command_problems(commands)]


def discord_errors(problems: Sequence[Problem]) -> dict[str, Any]:
    """Nest problems the way Discord's 50035 `errors` object does."""
    root: dict[str, Any] = {}
    for p in problems:
        node = root
        for key in p.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
    return root
