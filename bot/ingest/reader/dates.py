"""Dates as rules pages print them in figures, in one place: the patterns that find them
and the one reading of each into an ISO date."""

from __future__ import annotations

import datetime as dt
import re

ISO = r"\d{4}-\d{2}-\d{2}"
# Month first, as the American pages print it ("9/21/07", "09/24/2001"). A pattern finds
# what looks like one; :func:`us_date` says whether it is a real date (a three-figure year
# is found, then refused, so an impossible date is reported rather than read shorter).
US_DATE = r"\d{1,2}/\d{1,2}/\d{2,4}"
# Decipher's Current Rulings pages date themselves so: "Rulings Updated: 03/26/01".
RULINGS_UPDATED = rf"Rulings Updated:?\s+({US_DATE})"


def us_date(text: str) -> str | None:
    """ "09/24/01" or "9/24/2001" -> "2001-09-24" (None if it is no real date)."""
    match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})", text.strip())
    if not match:
        return None
    month, day, year = (int(g) for g in match.groups())
    if year < 100:
        year += 1900 if year >= 90 else 2000
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def iso_or_none(text: str) -> str | None:
    """An ISO or a month-first date as ISO; None if it is no real date."""
    try:
        return dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        return us_date(text)
