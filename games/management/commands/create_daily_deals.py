"""Create today's daily deals and the next days' (idempotent: existing deals stay)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games.daily.deals import ensure_dailies, load_certifier, today


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=settings.DAILY_DAYS_AHEAD + 1,
            help="how many days, today included",
        )
        parser.add_argument(
            "--start",
            type=dt.date.fromisoformat,
            default=None,
            help="the first day (YYYY-MM-DD; default today)",
        )
        parser.add_argument(
            "--date",
            type=dt.date.fromisoformat,
            default=None,
            help="make this one day's deals only (YYYY-MM-DD)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["date"] is not None:
            options["start"], options["days"] = options["date"], 1
        start = options["start"] or today()
        if load_certifier() is None:
            self.stdout.write("solver not installed: deals are stored uncertified")
        for deal in ensure_dailies(start, options["days"]):
            self.stdout.write(
                f"{deal.date} {deal.game:15} {deal.public_id} certified={deal.certified} "
                f"commitment={deal.commitment}"
            )
