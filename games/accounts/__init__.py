"""Guests and accounts: players and their names (``players``), a guest joining an account
(``merge``), and browser sessions that live as long as a guest plays (``session_life``)."""
