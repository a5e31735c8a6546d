"""Why a move is refused: a sentence for the player, with a stable code and its parameters.

``Reason`` is the sentence itself (a ``str``: everything that shows or compares the reason
keeps working) and also carries ``code`` and ``params``, so a client can say it again in
the player's language without recognising the English words.  Cards are given by their
codes (``"TD"``), suits by their letters (``"H"``), ranks by their names (``"seven"``).
"""

from __future__ import annotations

from typing import Any


class Reason(str):
    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, text: str, **params: Any) -> Reason:
        self = super().__new__(cls, text)
        self.code, self.params = code, params
        return self


def code_of(reason: object) -> tuple[str, dict[str, Any]]:
    """The code and parameters of a reason; a plain sentence has the code "refused"."""
    if isinstance(reason, Reason):
        return reason.code, dict(reason.params)
    return "refused", {}
