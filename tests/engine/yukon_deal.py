"""A Yukon deal and a winning line of it, kept as written (found once by the solver with
every card known), so that the API and the table page are checked against the rules and
not against the search."""

from __future__ import annotations

SEED = 6
LINE = """64v3 6h 6h 53v5 21v2 42v5 4h 4h 34v7 13v3 41v8 41 45 74v5 73 23v2 25v5 42 4h 3h 53v2
4h 15v3 31v10 35 13v11 3h 43v3 24v2 72 7h 57v9 5h 73v10 37v3 3h 3h 2h 74v4 3h 34v13 47v7 47
74v9 67 17v4 31v5 73 17 61 6h 2h 5h 67 4h 17v2 41v11 75v6 17v5 1h 1h 5h 5h 1h 1h 4h 4h 5h 5h
7h 7h 1h 1h 4h 4h 5h 5h 7h 7h 1h 1h 4h 4h 5h 6h 7h 7h 1h 4h 4h 7h 1h 3h""".split()
# 64v3, the line's first move: pile 6's last three cards, not in order, onto pile 4's six
# of hearts (the five of clubs fits it; the others go with it).
GROUP = ["5C", "7S", "3C"]
