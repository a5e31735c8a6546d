"""The daily clock (what day it is, when a day ends), the days the site keeps (boards, the
dailies' record), and how an address names one."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

from django.conf import settings
from django.utils import timezone

# Boards exist for days in this range; beyond it the week around a day could not even be
# computed (9999-12-31 has no Sunday after it).
FIRST_DAY, LAST_DAY = dt.date(2000, 1, 1), dt.date(2999, 12, 31)
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # not \d: that takes other scripts' digits
BAD_DAY = f"date must be a day from {FIRST_DAY} to {LAST_DAY}, written YYYY-MM-DD"


def _shift() -> dt.timedelta:
    # DAILY_CLOCK_SHIFT_SECONDS runs the daily calendar ahead of the real clock (tests that
    # cross a midnight, a rehearsal of a day to come); stored times stay the real ones.
    return dt.timedelta(seconds=settings.DAILY_CLOCK_SHIFT_SECONDS)


def today() -> dt.date:
    """The daily date now, in the configured time zone (UTC by default)."""
    zone = zoneinfo.ZoneInfo(settings.DAILY_TIME_ZONE)
    return (timezone.now() + _shift()).astimezone(zone).date()


def day_start(day: dt.date) -> dt.datetime:
    """The real instant ``day`` opens: its midnight in the daily time zone (a day of 23 or
    25 hours around a clock change included)."""
    zone = zoneinfo.ZoneInfo(settings.DAILY_TIME_ZONE)
    return dt.datetime.combine(day, dt.time(0, 0), tzinfo=zone) - _shift()


def day_end(day: dt.date) -> dt.datetime:
    """The real instant ``day`` ends: the next day's midnight."""
    return day_start(day + dt.timedelta(days=1))


def is_over(day: dt.date, now: dt.datetime | None = None) -> bool:
    """Whether ``day`` has ended (at ``now``, the real clock by default)."""
    return (now or timezone.now()) >= day_end(day)


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
