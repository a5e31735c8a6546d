"""Pages only: each one is a template and a little JSON for its script.  No rules here."""

from __future__ import annotations

import datetime as dt
from typing import Any
from uuid import UUID

from csp.constants import WASM_UNSAFE_EVAL
from csp.decorators import csp_update
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from games.daily import deals as daily
from games.daily.days import parse_day
from games.engine import GAMES
from games.models import GameSession

from . import offline
from .language import request_language
from .strings import scoring_text, ui_strings


def game_titles() -> dict[str, str]:
    """Every game's title in the page's language, from its declaration."""
    return {key: _(cls.title) for key, cls in GAMES.items()}


def _title(key: str) -> str:
    return _(GAMES[key].title)


def site_context(request: HttpRequest, **context: Any) -> dict[str, Any]:
    """What the site's layout (base.html) needs, in the request's language, with
    ``context`` on top: every page's, the account pages' and the error pages' alike."""
    lang = request_language(request)
    titles = game_titles()
    games = [{"key": k, "title": titles[k], "daily": cls.daily} for k, cls in GAMES.items()]
    context.setdefault("page", {})
    context["page"].update(
        {"lang": lang, "strings": ui_strings(), "titles": titles, "offline": offline.page_data()}
    )
    return {
        "lang": lang,
        "games": games,
        "titles": titles,
        "other_lang": "fr" if lang == "en" else "en",
        **context,
    }


def _page(request: HttpRequest, template: str, **context: Any) -> HttpResponse:
    response = render(request, template, site_context(request, **context))
    response.headers["Content-Language"] = request.LANGUAGE_CODE
    return response


def _game(key: str) -> dict[str, Any]:
    cls = GAMES.get(key)
    if cls is None:
        raise Http404("no such game")
    return {
        "key": key,
        "columns": cls.columns,
        "cells": cls.free_cells,
        "draw": cls.draw,
        "single": cls.runs.top_only,
        "supermove": cls.runs.counted,
        # A foundation's top card may be taken hold of (to come back down, or for the server
        # to say why it may not) where the notation can name a foundation to move from.
        "foundation_pickable": cls.foundation_from is not None,
        "has_score": cls.has_score,
        # The game's declared scoring and how it counts (docs/rules.md, Scores).
        "scoring": cls.scoring,
        "scoring_text": scoring_text(cls.scoring),
        # "Send up" beside the finish: every card that can go up now (table.py).
        "send_up": cls.send_up,
        # What notation.js needs to write a move the server did not list.
        "notation": {"columns": cls.column_names, "foundation_from": cls.foundation_from},
        "daily": cls.daily,
    }


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return _page(request, "frontend/home.html")


@ensure_csrf_cookie
# Pyodide compiles WebAssembly when the table is played offline (frontend/offline.py): the
# table alone may, no other page.
@csp_update({"script-src": [WASM_UNSAFE_EVAL]})  # type: ignore[arg-type]  # typed as (request)
def play(request: HttpRequest, game: str) -> HttpResponse:
    meta = _game(game)
    deal = request.GET.get("deal", "daily" if meta["daily"] else "random")
    meta["deal"] = deal
    return _page(request, "frontend/play.html", game=meta, title=_title(game), page={"game": meta})


def offline_page(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it has no copy of (frontend/offline.py)."""
    return _page(request, "frontend/offline.html")


@ensure_csrf_cookie
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    meta = _game(game)
    day = parse_day(request.GET.get("date", ""))  # a past day's board; today's without
    return _page(
        request,
        "frontend/leaderboard.html",
        game=meta,
        title=_title(game),
        page={"game": meta, "date": day.isoformat() if day else None},
    )


def fair(request: HttpRequest) -> HttpResponse:
    """How anyone can check the dailies, and the last 30 days' commitments and seeds."""
    last = daily.today()
    days = daily.days_record(last - dt.timedelta(days=29), last)
    upcoming = daily.days_record(last + dt.timedelta(days=1), last + dt.timedelta(days=7))
    titles = game_titles()
    for d in [*days, *upcoming]:
        d["title"] = titles.get(d["game"], d["game"])
    return _page(request, "frontend/fair.html", days=days[::-1], upcoming=upcoming)


def privacy(request: HttpRequest) -> HttpResponse:
    """What is kept about a player, why and for how long (games/accounts/leaving.py)."""
    from django.conf import settings

    return _page(
        request, "frontend/privacy.html", session_days=settings.SESSION_COOKIE_AGE // 86400
    )


def accessibility(request: HttpRequest) -> HttpResponse:
    return _page(request, "frontend/accessibility.html")


@ensure_csrf_cookie
def profile(request: HttpRequest) -> HttpResponse:
    return _page(request, "frontend/profile.html")


@ensure_csrf_cookie
def rules(request: HttpRequest, game: str) -> HttpResponse:
    meta = _game(game)
    cls = GAMES[game]
    return _page(
        request,
        "frontend/rules.html",
        game=meta,
        title=_title(game),
        rules=[_(line) for line in cls.rules],
        controls=[_(line) for line in cls.controls],
    )


@ensure_csrf_cookie
def account(request: HttpRequest) -> HttpResponse:
    return _page(request, "frontend/account.html")


def replay(request: HttpRequest, session_id: str) -> HttpResponse:
    """A game step by step; whether it may be watched is the API's answer (games/daily/replays.py)."""
    try:
        UUID(session_id)
    except ValueError:
        raise Http404("no such session") from None
    game = GameSession.objects.filter(pk=session_id).values_list("game", flat=True).first()
    if game is None:
        raise Http404("no such session")
    meta = _game(game)
    return _page(
        request,
        "frontend/replay.html",
        game=meta,
        title=_title(game),
        page={"game": meta, "session": session_id},
    )


@ensure_csrf_cookie
def archive(request: HttpRequest) -> HttpResponse:
    """Past dailies, a month at a time, with the player's own results (games/daily/archive.py)."""
    daily_games = [k for k, cls in GAMES.items() if cls.daily]
    game = request.GET.get("game", daily_games[0])
    if game not in daily_games:
        raise Http404("no daily for that game")
    meta = _game(game)
    return _page(
        request,
        "frontend/archive.html",
        game=meta,
        title=_title(game),
        page={"game": meta, "today": daily.today().isoformat()},
    )
