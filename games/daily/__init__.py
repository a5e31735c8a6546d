"""The daily room: what makes a day's deal and what is kept of it afterwards.

``deals`` (the dailies and the other deals a session can start from), ``days`` (the daily
clock and the days kept), ``archive`` (past dailies), ``medals`` (par and difficulty),
``share`` (a result in one line), ``replays`` (a game step by step) and ``analysis`` (where
a game was lost)."""
