"""The days the site keeps (boards, the dailies' record), and how an address names one."""

from __future__ import annotations

import datetime as dt
import re

# Boards exist for days in this range; beyond it the week around a day could not even be
# computed (9999-12-31 has no Sunday after it).
FIRST_DAY, LAST_DAY = dt.date(2000, 1, 1), dt.date(2999, 12, 31)
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # not \d: that takes other scripts' digits
BAD_DAY = f"date must be a day from {FIRST_DAY} to {LAST_DAY}, written YYYY-MM-DD"



def parse_day(text: str) -> dt.date | None:
    """The day ``text`` names, written exactly YYYY-MM-DD (``fromisoformat`` alone would also
    take 20260101 or 2026-W01-1), if it lies in the supported range."""
    if not DAY.fullmatch(text):
        return None
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    return day if FIRST_DAY <= day <= LAST_DAY else None
