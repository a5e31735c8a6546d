"""games.daily.deals.deal_row: the one get-or-make of a seed's deal, with its race.

Two requests may both find no deal for a seed and both INSERT it; the unique (game, seed)
constraint refuses the second, whose statement then reads the first's row.  Outside a
transaction the INSERT runs in autocommit (nothing to roll back); inside one it takes a
savepoint, so the caller's transaction survives the refusal.  Both paths are forced here
by hiding the existing row from the first lookup.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.daily import deals as daily
from games.models import Deal


def _hide_first_lookup(monkeypatch):
    real, calls = daily._find, []

    def find(game, seed):
        calls.append(seed)
        return None if len(calls) == 1 else real(game, seed)

    monkeypatch.setattr(daily, "_find", find)
    return calls


@pytest.mark.django_db(transaction=True)
def test_a_lost_race_outside_a_transaction_reads_the_winners_row(monkeypatch):
    first = Deal.objects.create(game="freecell", seed=4242)
    calls = _hide_first_lookup(monkeypatch)
    assert not connection.in_atomic_block
    got = daily.deal_row("freecell", 4242)
    # The INSERT's own statement read the row it found there: no second lookup.
    assert got.pk == first.pk
    assert got.seed == 4242
    assert calls == [4242]
    assert Deal.objects.filter(game="freecell", seed=4242).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_lost_race_inside_a_transaction_leaves_it_usable(monkeypatch):
    first = Deal.objects.create(game="freecell", seed=4243)
    _hide_first_lookup(monkeypatch)
    with transaction.atomic():
        got = daily.deal_row("freecell", 4243)
        # The savepoint took the refusal: the transaction goes on and commits.
        Deal.objects.create(game="freecell", seed=4244)
    assert got.pk == first.pk
    assert set(Deal.objects.filter(seed__in=["4243", "4244"]).values_list("seed", flat=True)) == {
        4243,
        4244,
    }


@pytest.mark.django_db
def test_a_missing_deal_is_made_once_and_read_back_whole():
    made = daily.deal_row("freecell", 777)
    again = daily.deal_row("freecell", 777)
    assert again.pk == made.pk
    assert again.seed == 777
    assert again.game == "freecell"
    assert again.public_id == made.public_id
    assert again.date is None
    # The solver's line is not read with the row, but still there when asked for.
    Deal.objects.filter(pk=made.pk).update(line=["3a"])
    assert daily.deal_row("freecell", 777).line == ["3a"]


@pytest.mark.django_db(transaction=True)  # autocommit, as a request runs it: no savepoint
@pytest.mark.parametrize("there", [False, True], ids=["new seed", "seed with a deal"])
def test_a_fresh_seed_takes_one_statement_whether_or_not_it_has_a_deal(there):
    """A random FreeCell number often has its deal already (32,000 of them): one round
    trip either way, and the row read back whole."""
    before = Deal.objects.create(game="freecell", seed=31999) if there else None
    with CaptureQueriesContext(connection) as queries:
        got = daily.deal_row("freecell", 31999, fresh=True)
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert got.seed == 31999
    assert got.game == "freecell"
    assert got.public_id
    assert before is None or (got.pk == before.pk and got.public_id == before.public_id)
    assert Deal.objects.filter(game="freecell", seed=31999).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_seed_another_request_is_still_inserting_is_looked_up_after(monkeypatch):
    """The statement returns nothing when the other INSERT had not committed when it
    began (its snapshot cannot see that row): the lookup after it finds the row."""
    first = Deal.objects.create(game="freecell", seed=4245)
    monkeypatch.setattr(daily, "_insert", lambda game, seed: None)
    got = daily.deal_row("freecell", 4245, fresh=True)
    assert got.pk == first.pk
