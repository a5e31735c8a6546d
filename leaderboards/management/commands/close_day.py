"""Close a finished day: final ranks, and its deals' seeds and salts revealed (idempotent).
Each step is printed as it ends, with its time; a day already closed is left as it is
unless --force (a correction: ranks written again where they changed)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.daily.days import is_over, today
from games.engine import DAILY_GAMES
from leaderboards import closing


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("date", help="the day, YYYY-MM-DD")
        parser.add_argument("--game", choices=DAILY_GAMES, help="one game only")
        parser.add_argument(
            "--force", action="store_true", help="close again a game's day already closed"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = dt.date.fromisoformat(options["date"])
        except ValueError:
            raise CommandError(f"not a day: {options['date']!r}; write YYYY-MM-DD") from None
        if not is_over(day):
            raise CommandError(
                f"{day} is not over yet (today is {today()}): closing it would "
                "reveal deals still being played"
            )
        started = time.perf_counter()

        def say(text: str) -> None:
            self.stdout.write(f"{time.perf_counter() - started:7.1f} s  {text}")
            self.stdout.flush()

        say(f"closing {day} (another close of the same game and day waits for this one)")
        games = [options["game"]] if options["game"] else None
        for game, count in closing.close(day, games, force=options["force"], progress=say).items():
            self.stdout.write(f"{day} {game:15} {count} ranked")
        say("done")
