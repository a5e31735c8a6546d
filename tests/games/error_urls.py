"""The site's URLs plus views that fail on purpose, for tests/games/test_error_pages.py."""

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site

handler403 = "config.errors.permission_denied"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


urlpatterns = [
    path("broken/", broken),
    path("api/broken/", broken),
    path("forbidden/", forbidden),
    path("api/forbidden/", forbidden),
    *site,
]
