"""What happens in play that other parts of the site care about, told without knowing who
listens: the leaderboards connect their receivers in ``LeaderboardsConfig.ready()``.

Every signal is sent synchronously by the code that caused it; each says when it is sent,
because a receiver may rely on that (inside the transaction, or after its commit).
"""

from __future__ import annotations

from django.dispatch import Signal

# A session was won; sent after the winning move is committed.  session=GameSession
session_won = Signal()
# An operator disqualified a session or took the disqualification back; sent after the
# change is saved.  session=GameSession
session_disqualified = Signal()
# An operator cleared or disqualified a win under review; sent after the decision is saved.
# session=GameSession
session_reviewed = Signal()
# A guest joined an account (games/accounts/merge.py); sent inside the merge's transaction,
# with both player rows locked.  account=Player, guest=Player, demoted=[GameSession] (the
# attempts that stopped being ranked)
attempts_merged = Signal()
# The number of play sockets open on a daily deal changed (games/live/presence.py); sent
# after the count is stored.  game=str, date=date
presence_changed = Signal()
