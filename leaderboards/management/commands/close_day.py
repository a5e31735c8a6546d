"""Close a finished day: final ranks, and its deals' seeds and salts revealed (idempotent)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.daily import today
from leaderboards.tasks import close_day


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("date", help="the day, YYYY-MM-DD")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = dt.date.fromisoformat(options["date"])
        except ValueError:
            raise CommandError(f"not a day: {options['date']!r}; write YYYY-MM-DD") from None
        if day >= today():
            raise CommandError(f"{day} is not over yet (today is {today()}): closing it would "
                               "reveal deals still being played")
        for game, count in close_day(day.isoformat()).items():
            self.stdout.write(f"{day} {game:15} {count} ranked")
