"""The player's own views: who am I, signing up, in and out, the email, leaving
(docs/api.md, "Players")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from config.patches.rest_framework import lean_get
from games.accounts import devices, leaving, players, verification
from games.api import serializers as s
from games.api.base import ERR, PlayerAPIView, player_body, player_json, player_of, validated
from games.errors import TryLater, answer_for
from games.fairplay import ratelimit


class MeView(PlayerAPIView):
    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        # A plain GET skips DRF's machinery (config/patches/rest_framework.py); the rest
        # comes here.
        return lean_get(
            super().as_view(**initkwargs), player_body, players.current_player, answer_for
        )

    @extend_schema(
        responses={200: s.PlayerOut},
        summary="The current player (a guest is made on the first visit); sets session and CSRF cookies",
    )
    def get(self, request: Request) -> Response:
        return Response(player_json(request, player_of(request)))

    @extend_schema(
        request=s.RenameIn,
        responses={200: s.PlayerOut, 400: ERR},
        summary="Change the display name, whether the open data names the player, or whether the live race shows them",
    )
    def patch(self, request: Request) -> Response:
        data = validated(s.RenameIn, request.data)
        player = player_of(request)
        if "display_name" in data:
            player = players.rename(player, data["display_name"])
        if "anonymous" in data:
            players.set_anonymous(player, data["anonymous"])
        if "hide_from_race" in data:
            players.set_hide_from_race(player, data["hide_from_race"])
        return Response(player_json(request, player))

    @extend_schema(
        request=s.MeDeleteIn,
        responses={204: None, 400: ERR},
        summary='Delete the account (or this guest) and its games; ranked attempts on the boards stay, nameless, so no rank moves (docs/rules.md, "Your data")',
    )
    def delete(self, request: Request) -> Response:
        # It checks a password: limited per address as signing in is.
        wait = ratelimit.hit("auth", f"a{ratelimit.client_address(request.META)}")
        if wait is not None:
            raise TryLater(gettext("too many tries: try again in %(s)s s") % {"s": wait}, wait)
        data = validated(s.MeDeleteIn, request.data if request.data else {})
        leaving.delete(
            request._request, player_of(request), data.get("password"), data.get("confirm")
        )
        response = Response(status=status.HTTP_204_NO_CONTENT)
        response.delete_cookie(devices.DEVICE_COOKIE)  # the browser keeps nothing of them
        return response


class SignUpView(PlayerAPIView):
    rate_limit_scope = "auth"  # games/fairplay/ratelimit.py

    @extend_schema(
        request=s.SignUpIn,
        responses={201: s.PlayerOut, 400: ERR},
        summary="Turn the current guest into an account, keeping its games",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.SignUpIn, request.data)
        player = players.sign_up(
            request._request, data["username"], data["password"], data.get("email")
        )
        return Response(player_json(request, player), status=status.HTTP_201_CREATED)


class SignInView(PlayerAPIView):
    rate_limit_scope = "auth"  # games/fairplay/ratelimit.py

    @extend_schema(
        request=s.CredentialsIn,
        responses={200: s.PlayerOut, 400: ERR},
        summary="Sign in; this browser's guest games join the account",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.CredentialsIn, request.data)
        player = players.sign_in(request._request, data["username"], data["password"])
        return Response(player_json(request, player))


class EmailView(PlayerAPIView):
    rate_limit_scope = "auth"  # it checks a password: limited as signing in is

    @extend_schema(
        request=s.EmailIn,
        responses={200: s.PlayerOut, 400: ERR},
        summary="Give, change or remove the account's email (needs the current password); a new address is pending until the link mailed to it is opened",
    )
    def put(self, request: Request) -> Response:
        data = validated(s.EmailIn, request.data)
        player = verification.set_email(
            request._request, player_of(request), data["email"], data["password"]
        )
        return Response(player_json(request, player))


class SignOutView(PlayerAPIView):
    makes_guest = False

    @extend_schema(request=None, responses={204: None}, summary="Sign out")
    def post(self, request: Request) -> Response:
        players.sign_out(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
