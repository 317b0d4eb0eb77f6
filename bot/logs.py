"""Logging, configured once at the entry point: one line per event, as text or JSON.

``RULINGS_LOG_FORMAT=json`` gives one JSON object per line (for log shippers); the default is
one plain line per event. A traceback stays on its event's line (folded), so a log reader
never has to guess where an event ends.
"""

from __future__ import annotations

import json
import logging
import os
import sys


class OneLineFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        return line.replace("\n", " ⏎ ")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        event = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            event["exception"] = self.formatException(record.exc_info)
        return json.dumps(event, ensure_ascii=False)


def configure_logging(level: str | int = "WARNING", fmt: str | None = None) -> None:
    """Set up the root logger once; ``discord.http`` is turned down to WARNING."""
    fmt = (fmt or os.environ.get("RULINGS_LOG_FORMAT") or "text").lower()
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(OneLineFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
