"""DRF's JSON renderer, with orjson writing the common answer.

The standard library's encoder took a twentieth of a ``POST /api/sessions/`` (its answer is
the whole table; bench/http_cost.py).  orjson writes the same compact UTF-8 bytes for the
same data; whatever it would write differently goes to DRF's own encoding: a datetime
(DRF writes UTC as ``Z``), any type orjson does not know (lazy translations, decimals: its
``default`` is DRF's encoder's), keys that are not strings, integers past 64 bits, and any
request for indented output.  Two differences are kept: a float may be written in another
form (``1.5e-7`` for ``1.5e-07``, ``0.00001`` for ``1e-05``: the same number), and a NaN or
an infinity is written as ``null`` where DRF's strict mode raised (a 500); no answer here
carries one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

_DEFAULT = JSONEncoder().default
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is not None and not self.get_indent(
            accepted_media_type or "", renderer_context or {}
        ):
            try:
                out = orjson.dumps(data, default=_DEFAULT, option=_OPTIONS)
            except TypeError:  # orjson.JSONEncodeError: a key or an integer it will not write
                pass
            else:
                return out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
        answer: bytes = super().render(data, accepted_media_type, renderer_context)
        return answer
