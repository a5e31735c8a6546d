"""Twisted: Daphne's HTTP requests without Twisted's form parsing (patch ``twisted_forms``).

Twisted's ``Request.requestReceived`` parses the body of every POST whose type is a form
(``application/x-www-form-urlencoded`` or ``multipart/form-data``) into ``request.args``,
and to learn the type it builds an ``email.message`` for the ``Content-Type`` header of
every POST, a form or not: 7% of the busy samples of a ``POST /api/sessions/`` (py-spy;
bench/http_cost.py).  Daphne never reads ``args``: it hands the raw body to the
application, where Django parses what it needs.  So the parse is turned off, which also
spares a multipart upload a second, unlimited parse ahead of Django's own limits.

Patches: the request class of daphne's HTTP factory (``daphne.http_protocol.WebRequest``),
replaced by a subclass that passes Twisted's ``parsePOSTFormSubmission=False``.
Written for: Twisted 26.10.0, daphne 4.2.3 (the versions in config/tripwires.json).
Tripwires: ``Twisted`` (``Request.__init__``, ``Request.requestReceived``) and ``daphne``
(``WebRequest.__init__``, ``HTTPFactory.buildProtocol``).
Off (``FRAMEWORK_PATCHES_OFF=twisted_forms``): Twisted parses every form body as it comes.
Tested: tests/frontend/test_daphne_bodies.py.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

from config import patches


def install() -> None:
    """Daphne's HTTP factory builds ``FormlessRequest`` (under Daphne only: another server
    never imports daphne's server module).  It names its request class when it builds each
    connection, from its module, so the module's name is what is replaced."""
    if "daphne.server" not in sys.modules or not patches.on("twisted_forms"):
        return
    from daphne import http_protocol
    from twisted.web.http import Request

    if getattr(http_protocol.WebRequest, "formless", False):
        return
    if "parsePOSTFormSubmission" not in inspect.signature(Request.__init__).parameters:
        return  # a Twisted without the switch: it parses, as it did
    base = http_protocol.WebRequest

    class FormlessRequest(base):  # type: ignore[misc, valid-type]
        formless = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["parsePOSTFormSubmission"] = False  # Twisted's own switch for it
            super().__init__(*args, **kwargs)

    http_protocol.WebRequest = FormlessRequest
