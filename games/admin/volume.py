"""The admin's lists at a million rows: pages without a full count, and a search that each
kind of term answers from an index (never a text search over every session).

A plain changelist counts every matching row for its pager, counts the whole table again
for "N total", and searches with ``UPPER(col::text) LIKE '%term%'`` on each search field,
which at a million sessions is a scan per request (seconds).  Here the pager counts at most
``CappedPaginator.CAP`` rows (a narrower filter or a search reaches the rest), and
``session_search`` turns a term into lookups the indexes answer.
"""

from __future__ import annotations

import re
import uuid
from functools import cached_property
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Q

from games.accounts.names import name_key
from games.models import Deal, Player

HEX = re.compile(r"[0-9a-fA-F-]{4,36}")
NAMES_MAX = 1000  # players a name search looks through (the first, by their look-alike key)


class CappedPaginator(Paginator):
    """Counts at most CAP rows (``SELECT count(*) FROM (... LIMIT CAP + 1)``): the pager
    then offers the first CAP / per-page pages; a count above CAP reads as CAP + 1."""

    CAP = 10_000

    @cached_property
    def count(self) -> int:
        rows: Any = self.object_list  # the changelist's queryset
        return int(rows.order_by()[: self.CAP + 1].count())


def id_range(term: str) -> tuple[uuid.UUID, uuid.UUID] | None:
    """The session ids a hexadecimal term begins: a range of the primary key."""
    if not HEX.fullmatch(term):
        return None
    digits = term.replace("-", "").lower()
    if not 4 <= len(digits) <= 32:
        return None
    return uuid.UUID(digits.ljust(32, "0")), uuid.UUID(digits.ljust(32, "f"))


def session_search(queryset: Any, term: str) -> Any:
    """Sessions whose id begins with ``term`` (hex, dashes or not), whose player's name reads
    as beginning with it (the look-alike key, games/accounts/players.py: "ada l" finds
    "Ada_L." and "AdaL"), or whose deal is the deal id ``term``."""
    term = term.strip()
    if not term:
        return queryset
    found = Q(pk__in=[])
    if (span := id_range(term)) is not None:
        found |= Q(pk__gte=span[0], pk__lte=span[1])
    if key := name_key(term):
        players = list(
            Player.objects.filter(name_key__startswith=key)
            .order_by("name_key")
            .values_list("id", flat=True)[:NAMES_MAX]
        )
        if players:
            found |= Q(player_id__in=players)
    deals = list(Deal.objects.filter(public_id=term).values_list("id", flat=True))
    if deals:
        found |= Q(deal_id__in=deals)
    return queryset.filter(found)
