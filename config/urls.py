"""URL map: the JSON API, the admin, then the front end's pages last."""

from __future__ import annotations

import importlib.util

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import health
from config.errors import not_found

urlpatterns = [
    # Answered in front of Django under ASGI (config/asgi.py); these serve any other way.
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view loads its start-up script from a URL of its own rather than inline,
    # so the Content-Security-Policy needs no exception for it.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/docs.html"),
        name="api-docs",
    ),
    path("api/", include("games.api.urls")),
    path("api/", include("leaderboards.urls")),
    # Any other address under /api/ is a JSON 404 even with DEBUG on (a local run), where
    # Django would answer its HTML debug page instead of handler404.
    re_path(r"^api/", not_found),
]


# The front end is built alongside; the API must keep working while it does not exist yet.
def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


if _has_module("frontend.urls"):
    urlpatterns.append(path("", include("frontend.urls")))

# JSON errors under /api/, the site's own pages elsewhere, and 503 (not 500) while the database is down: config/errors.py.
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
