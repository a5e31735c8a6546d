"""Write a closed day's open data (newline-delimited JSON, docs/api.md "Open data") to
standard output or a file; refused, with exit status 1, for a day not closed yet."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leaderboards import export


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("date", help="the day, YYYY-MM-DD")
        parser.add_argument("--output", "-o", help="write here instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = export.closed_day(options["date"])
        except ValueError as exc:
            raise CommandError(f"not a day: {options['date']!r}; {exc}") from None
        except export.NotExported as exc:
            raise CommandError(
                f"{exc} (close it with: manage.py close_day {options['date']})"
            ) from None
        out = open(options["output"], "w") if options["output"] else self.stdout  # noqa: SIM115
        count = 0
        try:
            for line in export.lines(day):
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
                count += 1
        finally:
            if options["output"]:
                out.close()
        print(f"{day}: {count} lines", file=sys.stderr)
