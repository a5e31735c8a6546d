"""Every sentence the browser code shows, translated on the server and handed to the page.

The scripts never hold English text of their own: they look a key up in this table, so one
set of ``.po`` files covers the templates and the table alike.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def ui_strings() -> dict[str, str]:
    return {
        # card and pile names (SPEC 9)
        "ranks": "|".join([
            _("ace"), _("two"), _("three"), _("four"), _("five"), _("six"), _("seven"),
            _("eight"), _("nine"), _("ten"), _("jack"), _("queen"), _("king"),
        ]),
        "suits": "|".join([_("clubs"), _("diamonds"), _("hearts"), _("spades")]),
        "card": _("%(rank)s of %(suit)s"),
        "face_down": _("face-down card"),
        "column": _("column %(n)s"),
        "cell": _("free cell %(n)s"),
        "foundation": _("%(suit)s foundation"),
        "stock": _("stock"),
        "waste": _("waste"),
        "stock_count": _("stock, %(n)s cards"),
        "stock_empty": _("stock, empty: turn the waste back"),
        "empty": pgettext("pile", "empty"),
        # status bar
        "time": _("Time"),
        "moves": _("Moves"),
        "score": _("Score"),
        "cards_up": _("Cards up"),
        "move_n": _("Move %(n)s"),
        "passes_left": _("Passes left: %(n)s"),
        "ranked": _("Ranked attempt"),
        "practice": _("Practice"),
        # buttons
        "undo": _("Undo"),
        "hint": _("Hint"),
        "new_deal": _("New deal"),
        "finish": _("Finish"),
        "auto_finish": _("Auto finish"),
        "stop": _("Stop"),
        "replay": _("Replay this deal"),
        "another": _("Another deal"),
        "look": _("Look at the table"),
        "copy": _("Copy"),
        "copied": _("Copied"),
        "close": _("Close"),
        # messages
        "tap_finish": _("All cards can go up: tap anywhere or press Enter to finish."),
        "finishing": _("Sending the cards up... press anything to stop."),
        "no_moves": _("No more moves: nothing on the table can change the outcome."),
        "hint_looking": _("Looking for a hint... keep playing if you like."),
        "hint_show": _("Hint: %(card)s to %(to)s."),
        "hint_draw": _("Hint: turn the stock."),
        "hint_none": _("No hint: there is no useful move left."),
        "hint_unsolvable": _("This position has no solution. Undo, ask another hint, replay or try another deal."),
        "hint_fallback": _("No winning line was found in time; this move looks reasonable."),
        "selected": _("%(card)s selected; choose where it goes."),
        "selected_run": _("%(card)s and %(n)s more selected; choose where they go."),
        "cancelled": _("Selection cancelled."),
        "moved": _("%(card)s to %(to)s."),
        "moved_run": _("%(n)s cards to %(to)s."),
        "drew": _("Stock turned."),
        "recycled": _("Waste turned back into the stock."),
        "undone": _("Move taken back."),
        "no_undo": _("There is no move to undo."),
        "cannot_go": _("cards cannot go there"),
        "won": _("You won!"),
        "won_time": _("Time"),
        "won_moves": _("Moves"),
        "won_up": _("Cards up"),
        "deal_id": _("Deal"),
        "offline": _("Connection lost: reconnecting... your moves are kept."),
        "online": _("Connected."),
        "error": _("Something went wrong: %(error)s"),
        "picker": _("%(n)s cards go with %(card)s"),
        "picker_hint": _("Slide to the arrows to change the first card, release to pick."),
        "more_cards": _("one more card"),
        "fewer_cards": _("one card fewer"),
        "playing_now": _("%(n)s playing now"),
        "no_entries": _("No one has finished yet today."),
        "no_games": _("No games played yet."),
        "rank": _("Rank"),
        "wins": _("Wins"),
        "played": _("Played"),
        "best_time": _("Best time"),
        "best_streak": _("Best daily streak"),
        "player": _("Player"),
        "won_col": _("Won"),
        "yes": _("yes"),
        "no": _("no"),
        "loading": _("Loading..."),
        "saved": _("Saved."),
        "play": _("Play"),
        "leaderboard": _("Leaderboard"),
    }
