"""Leaderboard entries are computed from games.GameSession for now (see ranking.py)."""

from __future__ import annotations
