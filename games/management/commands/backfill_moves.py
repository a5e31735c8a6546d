"""Copy the moves of games stored as one list (before moves had rows) into rows.

Safe while the site serves, any release: batches of sessions by id, each one short
statement that inserts the rows a game lacks (a row already there is left as it is), so
nothing is locked for long and a run stopped half way is simply run again.  Nothing needs
it to run: a game reads a move from its row, else from its list (games/play/moves.py).
``--clear`` also empties the lists it copied: only once no release that reads them serves
(docs/operations.md, "Upgrading").
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from games.models import GameSession, Move

S, M = GameSession._meta.db_table, Move._meta.db_table

# One batch: the next sessions (by id) whose list is not empty, their moves inserted as
# rows where none is; returns the last id and how many sessions the batch held.
_COPY = (
    f"WITH batch AS (SELECT id FROM {S} WHERE id > %s::uuid AND moves <> '[]'::jsonb "
    "ORDER BY id LIMIT %s), "
    f"copied AS (INSERT INTO {M} (session_id, seq, token, at_ms, op) "
    "SELECT s.id, e.ord - 1, e.m ->> 0, (e.m ->> 1)::bigint, e.m ->> 2 "
    f"FROM {S} s JOIN batch ON batch.id = s.id, "
    "jsonb_array_elements(s.moves) WITH ORDINALITY AS e(m, ord) "
    "ON CONFLICT DO NOTHING RETURNING 1) "
    "SELECT (SELECT max(id::text) FROM batch), (SELECT count(*) FROM batch), "
    "(SELECT count(*) FROM copied)"
)
# The lists a batch copied whole emptied (--clear): every entry has its row.
_CLEAR = (
    f"UPDATE {S} s SET moves = '[]'::jsonb WHERE s.id > %s::uuid AND s.id <= %s::uuid "
    "AND s.moves <> '[]'::jsonb AND jsonb_array_length(s.moves) = "
    f"(SELECT count(*) FROM {M} m WHERE m.session_id = s.id "
    "AND m.seq < jsonb_array_length(s.moves))"
)
FIRST = "00000000-0000-0000-0000-000000000000"


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=500, help="sessions per statement")
        parser.add_argument(
            "--clear",
            action="store_true",
            help="empty the lists copied (only once no older release serves)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["batch"] < 1:
            raise CommandError("--batch is a number of sessions, 1 or more")
        if options["clear"] and settings.MOVE_STORE == "dual":
            raise CommandError(
                "MOVE_STORE is dual: an older release may still read the lists; "
                "set MOVE_STORE=rows everywhere first, then --clear"
            )
        if connection.vendor != "postgresql":
            self._copy_orm(options["clear"])
            return
        after, sessions, rows, started = FIRST, 0, 0, time.monotonic()
        while True:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(_COPY, [after, options["batch"]])
                last, count, copied = cursor.fetchone()
                if not count:
                    break
                if options["clear"]:
                    cursor.execute(_CLEAR, [after, last])
            after, sessions, rows = last, sessions + count, rows + copied
            rate = sessions / max(time.monotonic() - started, 1e-6)
            self.stdout.write(f"{sessions} sessions, {rows} moves copied ({rate:.0f} sessions/s)")
        self.stdout.write(
            self.style.SUCCESS(
                f"done: {sessions} sessions with a list, {rows} moves copied into rows"
            )
        )

    def _copy_orm(self, clear: bool) -> None:
        """The same on another database (SQLite, ``make run``): session by session."""
        sessions = rows = 0
        for session in (
            GameSession.objects.exclude(legacy_moves=[])
            .only("id", "legacy_moves")
            .iterator(chunk_size=200)
        ):
            have = set(Move.objects.filter(session=session).values_list("seq", flat=True))
            new = [
                Move(
                    session=session, seq=i, token=m[0], at_ms=m[1], op=m[2] if len(m) > 2 else None
                )
                for i, m in enumerate(session.legacy_moves)
                if i not in have
            ]
            Move.objects.bulk_create(new, ignore_conflicts=True)
            if clear:
                GameSession.objects.filter(pk=session.pk).update(legacy_moves=[])
            sessions, rows = sessions + 1, rows + len(new)
        self.stdout.write(
            self.style.SUCCESS(
                f"done: {sessions} sessions with a list, {rows} moves copied into rows"
            )
        )
