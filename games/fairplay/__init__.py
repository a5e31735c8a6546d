"""The fair-play room: what keeps a leaderboard worth something.

``review`` (the signals kept with a ranked win and the verdict they give), ``line_share``
(how much of a game follows the solver, by position) and ``ratelimit`` (the calls worth
abusing, counted per player and address).  The deal's commitment is the engine's
(``games.engine.commitment``): it is pure and checked by anyone."""
