"""games.api.renderers: orjson's bytes are DRF's bytes, for the data the API answers with
and for the types orjson would write differently (handed to DRF's own encoding)."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid

from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer as DRFRenderer

from games.api.renderers import JSONRenderer

ours, drf = JSONRenderer(), DRFRenderer()


def _json(leaves):
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
        max_leaves=30,
    )


# JSON as the API answers it: keys always strings, no NaN or infinity (see the module).
no_floats = _json(st.none() | st.booleans() | st.integers() | st.text())
with_floats = _json(st.none() | st.integers() | st.floats(allow_nan=False, allow_infinity=False))


@given(no_floats)
def test_any_json_is_written_byte_for_byte_as_drf_writes_it(data):
    assert ours.render(data) == drf.render(data)


@given(with_floats)
def test_floats_read_back_as_the_same_numbers(data):
    # Only a float's form may differ (1.5e-7 for 1.5e-07, 0.00001 for 1e-05): the same number.
    assert json.loads(ours.render([data])) == json.loads(drf.render([data]))


def test_the_types_orjson_writes_differently_are_written_as_drf_writes_them():
    data = {
        "utc": dt.datetime(2026, 12, 2, 3, 4, 5, 678901, tzinfo=dt.UTC),
        "naive": dt.datetime(2026, 12, 2, 3, 4, 5),
        "offset": dt.datetime(2026, 12, 2, 3, 4, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        "day": dt.date(2026, 12, 2),
        "id": uuid.UUID(int=7),
        "price": decimal.Decimal("1.5"),
        "lazy": gettext_lazy("Klondike"),
        "lines": "a\u2028b\u2029c",
        "big": 2**70,
        "tuple": (1, 2),
        3: "an int key",
    }
    assert ours.render(data) == drf.render(data)
    assert ours.render({"x": [1, "\u2028"]}) == drf.render({"x": [1, "\u2028"]})
    assert b"\\u2028" in ours.render({"x": "\u2028"})


def test_indented_output_is_drfs():
    assert ours.render({"a": [1]}, "application/json; indent=2") == drf.render(
        {"a": [1]}, "application/json; indent=2"
    )
    assert ours.render(None) == b""
