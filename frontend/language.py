"""The language a page is drawn in, for the pages (views.py) and the app's manifest
(offline.py) alike."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import translation

LANGS = ("en", "fr")


def request_language(request: HttpRequest) -> str:
    """The browser's language, or the one the player chose (works with or without
    LocaleMiddleware)."""
    lang = translation.get_language_from_request(request)
    lang = (lang or "en").split("-")[0]
    if lang not in LANGS:
        lang = "en"
    translation.activate(lang)
    request.LANGUAGE_CODE = lang
    return lang
