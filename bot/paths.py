"""Where the shipped files are: the one place that knows the bundled data folder.

The data (``rulings_data/``) and the fitted search parameters ship inside the installed
package and are found with :mod:`importlib.resources`, so a wheel installed anywhere reads
the same files as the checkout; ``RULINGS_DATA`` still points at another data folder."""

from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path


@functools.cache  # where the package is installed does not change while it runs
def bundled_data_dir() -> Path:
    """The ``rulings_data`` folder installed with the package (or of the checkout)."""
    return Path(str(resources.files("rulings_data")))


def default_data_dir() -> Path:
    """``RULINGS_DATA`` if set, else the bundled ``rulings_data/``."""
    configured = os.environ.get("RULINGS_DATA")
    return Path(configured) if configured else bundled_data_dir()
