"""What the project already knows a title to be: a card of either edition, a topic title
of the shipped rulings, or a curated alias. The reader uses it to tell an entry head from a
heading or a site's menu; it never decides alone (an unknown title may be a new topic)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from bot.ingest.dataset import default_data_dir
from bot.normalize import normalize

# Read the YAML as text: one linear pattern over 2 MB costs milliseconds, parsing it seconds.
_TITLE = re.compile(r"^  title: (.+)$", re.M)
_ALIAS = re.compile(r"^  - alias: (.+)$", re.M)
_STRIP = " '\"*❖•"
_MAX_TITLE = 120


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1].replace("''", "'")
    return value


@functools.lru_cache(maxsize=4)
def _known(data_dir: str) -> frozenset[str]:
    root = Path(data_dir)
    keys: set[str] = set()
    files = [*sorted((root / "cards").glob("*.yaml")), *sorted((root / "entries").glob("*.yaml"))]
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        for match in _TITLE.finditer(text):
            keys.add(key(_unquote(match.group(1))))
    try:
        aliases = (root / "aliases.yaml").read_text(encoding="utf-8")
    except OSError:
        aliases = ""
    keys.update(key(_unquote(m.group(1))) for m in _ALIAS.finditer(aliases))
    keys.discard("")
    return frozenset(keys)


def key(title: str) -> str:
    """The comparison key of a printed title (marks, quotes and case folded away)."""
    return normalize(title.strip(_STRIP)[:_MAX_TITLE])


def is_known(title: str, data_dir: Path | None = None) -> bool:
    """Whether ``title`` is a card, topic or alias the project ships (either edition)."""
    title = title.strip(_STRIP)
    if not title or len(title) > _MAX_TITLE:
        return False
    known = _known(str(data_dir or default_data_dir()))
    if key(title) in known:
        return True
    # An inverted card title as glossaries print it ("Line Must Be Drawn Here, The").
    if title.endswith(", The"):
        return key("The " + title[:-5]) in known
    return False
