"""Rebuild the Redis rank index of a day from PostgreSQL (after Redis lost it), printing its
progress; the boards answer from PostgreSQL meanwhile, and swap to the new index at once."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.daily.days import today
from games.engine import DAILY_GAMES
from leaderboards import index


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("date", nargs="?", help="the day, YYYY-MM-DD (today by default)")
        parser.add_argument("--game", choices=DAILY_GAMES, help="one game only")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.REDIS_URL:
            raise CommandError(
                "REDIS_URL is not set: without Redis there is no rank index "
                "(the boards answer from PostgreSQL)"
            )
        try:
            day = dt.date.fromisoformat(options["date"]) if options["date"] else today()
        except ValueError:
            raise CommandError(f"not a day: {options['date']!r}; write YYYY-MM-DD") from None
        started = time.perf_counter()

        def say(text: str) -> None:
            self.stdout.write(f"{time.perf_counter() - started:7.1f} s  {text}")
            self.stdout.flush()

        for game in [options["game"]] if options["game"] else DAILY_GAMES:
            say(f"{game}: rebuilding the rank index of {day}")
            say(f"{game}: {index.rebuild(game, day, progress=say)} entries indexed")
