"""The play and board sockets accept a page of this site only: the Origin a browser sends
must be the very origin the socket was opened on (scheme, host and port), or one the
operator trusts (``CSRF_TRUSTED_ORIGINS``).

Channels' ``AllowedHostsOriginValidator`` compares the host name alone, so a page served
from another port of the same host (another program on the machine, a development server)
could open a player's socket with their cookies.  A browser cannot forge Origin, and it
always sends the Host it connected to; a client that is not a browser can send anything,
which the cookies' owner then is, so the check is about pages, not clients.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin1"))
    return None


def _port(text: str, scheme: str) -> int | None:
    if not text:
        return DEFAULT_PORTS.get(scheme)
    return int(text) if text.isdigit() else None


def secure(scope: dict[str, Any]) -> bool:
    """Whether the socket came over TLS: its own scheme, or the proxy's word for it when
    the operator said a proxy ends TLS (``SECURE_PROXY_SSL_HEADER``)."""
    if scope.get("scheme") == "wss":
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    return bool(proxy) and _header(scope, b"x-forwarded-proto") == "https"


def allowed(origin: str | None, host: str | None, tls: bool | None = None) -> bool:
    """Whether a page of ``origin`` may open a socket opened on ``host`` (over TLS or not:
    ``tls``; None when unknown)."""
    if not origin:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return False
    if tls is not None and (parts.scheme == "https") != tls:
        return False
    if not validate_host(parts.hostname, settings.ALLOWED_HOSTS):
        return False
    if host is None:
        return True  # no Host header: not a browser (see the module's docstring)
    name, host_port = split_domain_port(host)
    origin_port = port if port is not None else DEFAULT_PORTS[parts.scheme]
    return name == parts.hostname.lower() and _port(host_port, parts.scheme) == origin_port


class SameOriginSockets:
    """Lets a socket through to ``inner`` when ``allowed``; refuses the handshake (403)
    otherwise."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if allowed(_header(scope, b"origin"), _header(scope, b"host"), secure(scope)):
            return await self.inner(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
