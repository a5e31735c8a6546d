"""``{% import_map %}``: the page's import map, so that every module the entry script
imports by a relative path loads by its hashed name (config/static.py); ``{% module_urls
entry %}``: the addresses of the entry and of each module it imports; ``{% module_entry
entry %}``: the file the page's module script names (the table's bundle when it was built:
config/bundle.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.staticfiles.storage import staticfiles_storage
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from config.bundle import SHARED, bundled
from config.static import import_map as _import_map
from config.static import module_graph

register = template.Library()


@register.simple_tag(takes_context=True)
def import_map(context: dict[str, Any]) -> SafeString:
    text = _import_map()
    if text is None:  # plain names (DEBUG): the relative imports already name the files
        return mark_safe("")
    # Data the browser reads, allowed by its nonce alone (as the table's first request is,
    # frontend/start.js).
    # str(): django-csp's nonce is lazy, and made (and put in the header) once read.
    nonce = getattr(context.get("request"), "csp_nonce", None)
    if nonce is not None:
        return format_html(
            '<script type="importmap" nonce="{}">{}</script>', str(nonce), mark_safe(text)
        )
    return format_html('<script type="importmap">{}</script>', mark_safe(text))


@register.simple_tag
def module_entry(entry: str) -> str:
    """The address of the module script that runs ``entry``: its bundle, or itself."""
    return static(bundled(entry) or entry)


_urls: dict[tuple[int, tuple[str, ...]], str] = {}


@register.simple_tag
def module_urls(entry: str) -> str:
    """The addresses of ``entry`` and every module it imports, space-separated, each the
    hashed name the import map gives its plain path (so that the module the page imports
    is the one already fetched): what the table asks for at once (frontend/start.js).
    Bundled, the bundle and the modules it imports (pwa.js and its own: config/bundle.py),
    so that they are not found only once the bundle is read."""
    bundle = bundled(entry)
    graph = module_graph(entry) if bundle is None else (bundle, *module_graph(SHARED))
    key = (id(getattr(staticfiles_storage, "hashed_files", None)), graph)  # one deploy's
    urls = _urls.get(key)
    if urls is None:
        urls = " ".join(static(name) for name in graph)
        _urls.clear()
        _urls[key] = urls
    return urls
