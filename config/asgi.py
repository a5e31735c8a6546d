"""ASGI entry point served by Daphne: HTTP (with static files) and websockets."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

# Imported after Django is set up: the routing modules import models.
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.socket_session import ReadOnlySessionStack  # noqa: E402

http_app = ASGIStaticFilesHandler(django_asgi_app) if settings.SERVE_STATIC else django_asgi_app

application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": AllowedHostsOriginValidator(
            ReadOnlySessionStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Everything loaded so far lives as long as the process: moved out of the collector's
# sight, it is no longer walked by every full collection, which would otherwise pause all
# the sockets of this process now and then.
gc.freeze()
