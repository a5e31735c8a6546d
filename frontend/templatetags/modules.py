"""``{% import_map %}``: the page's import map, so that every module the entry script
imports by a relative path loads by its hashed name (config/static.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from config.static import import_map as _import_map

register = template.Library()


@register.simple_tag(takes_context=True)
def import_map(context: dict[str, Any]) -> SafeString:
    text = _import_map()
    if text is None:  # plain names (DEBUG): the relative imports already name the files
        return mark_safe("")
    # The one inline script of a page: data the browser reads, allowed by its nonce alone.
    # str(): django-csp's nonce is lazy, and made (and put in the header) once read.
    nonce = getattr(context.get("request"), "csp_nonce", None)
    if nonce is not None:
        return format_html('<script type="importmap" nonce="{}">{}</script>', str(nonce),
                           mark_safe(text))
    return format_html('<script type="importmap">{}</script>', mark_safe(text))
