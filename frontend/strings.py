"""Every sentence the browser code shows, translated on the server and handed to the page.

The scripts never hold English text of their own: they look a key up in this table, so one
set of ``.po`` files covers the templates and the table alike.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def scoring_text(scheme: str) -> str:
    """How a game's scoring scheme (games/engine/scoring.py) counts, in one sentence: the
    rules page's line and the table's Score label's title."""
    return {
        "windows": _(
            "Score: +10 a card up, +5 a card from the waste to the piles, +5 a card "
            "turned face up, −15 a card back from a foundation."
        ),
        "aisleriot": _(
            "Score: one point a card on the foundations, 52 at most (Aisleriot's scoring)."
        ),
        "five-a-card": _(
            "Score: 5 points a card on the foundations; a win adds 500 and a time bonus."
        ),
        "none": _("No score: a win ranks by its time, then its moves."),
    }[scheme]


def ui_strings() -> dict[str, str]:
    return {
        # card and pile names (docs/rules.md, "Accessible names")
        "ranks": "|".join(
            [
                _("ace"),
                _("two"),
                _("three"),
                _("four"),
                _("five"),
                _("six"),
                _("seven"),
                _("eight"),
                _("nine"),
                _("ten"),
                _("jack"),
                _("queen"),
                _("king"),
            ]
        ),
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
        # The rule text's name for FreeCell's counter (« Déplacer N »), as the rules page says
        # it; the pill's title says what it counts, beside the Moves counter.
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
        "resign": _("Resign"),
        "under_review": _("under review"),
        "review_checking": _("Checking the win..."),
        "review_verified": _("Verified win."),
        "review_pending": _("Under review: %(why)s."),
        "review_disqualified": _("Disqualified after review."),
        "active_time": _("Active time"),
        "resign_confirm": _(
            "Resign this ranked attempt? It ends here and ranks as unfinished, by cards up."
        ),
        "leave_confirm": _(
            "Leave your ranked attempt for a new deal? It stays on today's board as unfinished, by cards up, until the day closes; you can come back to it. Its clock keeps running."
        ),
        "leave_unplayed_confirm": _(
            "Leave your ranked attempt for a new deal? It stays open until the day closes; you can come back to it. Its clock runs from the deal shown, and keeps running."
        ),
        "resigned": _(
            "Attempt resigned: it ranks as unfinished, by cards up. The deal is yours to replay as practice."
        ),
        "ranked_open": _(
            "Your ranked attempt at this daily is still open: finish or resign it before playing the deal again."
        ),
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
        # The four exits are the notice's buttons: the sentence does not list them again.
        "hint_unsolvable": _("This position has no solution."),
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
        "offline": _(
            "Offline: reconnecting... your move waits and is sent when the connection returns."
        ),
        # offline mode (pwa.js, offline.js; docs/frontend.md, "Offline")
        "offline_practice": _(
            "Offline practice deal, played on this device: it goes to the server when it is over and the connection is back."
        ),
        "offline_turn_on": _("Make available offline"),
        "offline_turn_off": _("Turn offline mode off"),
        "offline_what": _(
            "Offline mode keeps the tables on this device (about 5 MB to download) so that practice deals can be played without a connection."
        ),
        "offline_saving": _("Saving the tables on this device..."),
        "offline_ready": _(
            "Available offline: with no connection, any table deals a practice game played on this device."
        ),
        "offline_unsupported": _("This browser cannot keep the site offline."),
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
        "renamed": _("You now play as %(name)s."),
        "anonymous_on": _("Your games will be listed without your name in the open data."),
        "anonymous_off": _("Your games will be listed under your name in the open data."),
        "race_hidden": _("Others will not see you in the race."),
        "race_shown": _("Others will see you in the race."),
        "signed_up": _("Account made: you are signed in as %(name)s, and your games are kept."),
        "signed_in": _("Signed in as %(name)s."),
        "signed_out": _("Signed out. You play as a guest on this device now."),
        "email_saved": _("Your email is saved: a forgotten password can be reset with it."),
        "email_removed": _("Your email is removed."),
        "share": _("Share"),
        "status": _("Status"),
        "difficulty_easy": _("easy"),
        "difficulty_medium": _("medium"),
        "difficulty_hard": _("hard"),
        "ar_unplayed": _("not played"),
        "ar_cards_up": _("%(n)s cards up"),
        "ar_play": _("Play the daily of %(date)s again"),
        "ar_par": _("par %(par)s"),
        "ar_board": _("board"),
        "day_won": _("a daily won"),
        "day_played": _("played, not won"),
        "day_frozen": _("missed, kept by a freeze"),
        "day_missed": _("missed"),
        "next_in": _("Next deals in %(left)s (at %(at)s your time)"),
        "next_out": _("The next deals are out: reload the page."),
        "lost_searching": _("Looking for where the game was lost..."),
        "lost_at": _("The game was lost at move %(n)s (%(move)s): %(alt)s instead still won."),
        "lost_still_wins": _("Nothing lost it: %(alt)s still wins from here."),
        # "Where was it lost?" in words: the moves named as the table names cards and piles.
        "lost_words": _("Move %(n)s lost the game: %(move)s. %(alt)s instead still won."),
        "lost_words_still": _("Nothing lost it: %(alt)s still wins from here."),
        "w_move": _("moving the %(card)s to %(to)s"),
        "w_run": _("moving %(count)s cards from the %(card)s to %(to)s"),
        "w_stock": _("turning the stock"),
        "w_redeal": _("turning the waste back"),
        "lost_never": _("This deal had no win from the start."),
        "lost_unknown": _("The solver could not tell within its %(s)s seconds."),
        "lost_after_close": _(
            "This game knows hidden cards: where it was lost is told once the day is closed."
        ),
        "lost_full_knowledge": _("(Found with every card known.)"),
        "lost_later": _("Still looking: ask again in a moment."),
        "watch": _("Watch it"),
        "replay_step": _("Move %(n)s: %(move)s"),
        "replay_play": _("Autoplay"),
        "watch_game": _("Watch this game step by step"),
        "replay_pause": _("Pause"),
        "replay_of": _("%(player)s · %(date)s · %(status)s"),
        "rank_of": _("#%(rank)s of %(total)s"),
        "status_won": _("won"),
        "status_playing": _("still playing"),
        "status_resigned": _("resigned"),
        "you_ranked": _("You: #%(rank)s · %(time)s · %(moves)s moves"),
        "you_unfinished": _("You: %(status)s · %(up)s cards up"),
        "board_rows": _("%(first)s–%(last)s of %(total)s"),
        "share_failed": _("Could not share: copy the result by hand."),
        "medal_par": _("%(medal)s (par %(par)s)"),
        "medal_gold": _("Gold"),
        "medal_silver": _("Silver"),
        "medal_bronze": _("Bronze"),
        "email_is": _("Your email is {email}: a forgotten password can be reset with it."),
        "no_email": _("No email: a forgotten password cannot be reset. Add one here."),
        "deleted": _("Deleted: your account and games are gone. You are a new guest now."),
        "email_pending": _(
            "A link to confirm %(email)s is on its way to that address: "
            "until it is opened, the address serves a password reset only. "
            "No mail? Give the address again to send a new link."
        ),
        "email_pending_saved": _("We sent a link to %(email)s: open it to confirm the address."),
        "play": _("Play"),
        "leaderboard": _("Leaderboard"),
        # the live race beside a ranked daily (race.js)
        "race_none": _("Nobody else is playing this daily now."),
        "race_row": _("Cards up: %(up)s · Moves: %(moves)s · %(time)s"),
        "race_finished": _("finished"),
        "race_offline": _("The race is reconnecting..."),
        # the engine's refusals, said again in the player's language (reasons.js)
        "r_cannot_go_on": _("%(card)s cannot go on %(onto)s: %(need)s"),
        "r_need_colour": _("it needs %(art)s %(colour)s %(rank)s"),
        "r_need": _("it needs %(art)s %(rank)s"),
        "art_m": pgettext("article before a masculine rank", "a"),
        "art_f": pgettext("article before a feminine rank", "a"),
        "black": pgettext("colour of a masculine rank", "black"),
        "red": pgettext("colour of a masculine rank", "red"),
        "black_f": pgettext("colour of a feminine rank", "black"),
        "red_f": pgettext("colour of a feminine rank", "red"),
        "r_ace": _("nothing goes on an ace"),
        "r_supermove": _(
            "moving %(n)s cards needs more free cells or empty columns (%(max)s at most now)"
        ),
        "r_not_yet": _(
            "%(card)s cannot go up yet: the %(suit)s foundation needs the %(rank)s first"
        ),
        "r_belongs": _("%(card)s belongs on the %(suit)s foundation"),
        "r_complete": _("the %(suit)s foundation is complete"),
        "r_found_empty": _("the %(suit)s foundation is empty"),
        "r_cell_taken": _("free cell %(n)s is taken"),
        "r_cell_empty": _("free cell %(n)s is empty"),
        "r_column_empty": _("column %(n)s is empty"),
        "r_top_only": _("only the top card of a column moves in this game"),
        "r_never_filled": _("an empty column is never filled again in this game"),
        "r_no_come_back": _("cards on the foundations do not come back in this game"),
        "r_undo_limit": _("undo goes back %(n)s moves at most"),
        "r_king_only": _("only a king, or a run headed by a king, can go into an empty pile"),
        "r_not_run": _("those cards are not an ordered run"),
        "r_cell_to_cell": _("a card does not move from one free cell to another"),
        "r_cell_one": _("a free cell holds one card"),
        "r_one_at_a_time": _("cards go up to the foundations one at a time"),
        "r_already_up": _("that card is already on its foundation"),
        "r_face_down": _("face-down cards cannot move"),
        "r_same_pile": _("a card cannot move onto the pile it is on"),
        "r_one_from_there": _("only one card moves from there"),
        "r_not_on_waste": _("cards cannot be put on the waste"),
        "r_not_on_stock": _("cards cannot be put on the stock"),
        "r_waste_empty": _("the waste is empty"),
        "r_stock_empty": _("the stock is empty: turn the waste back over instead"),
        "r_waste_back": _("the waste goes back only once the stock is empty"),
        "r_nothing_back": _("there are no cards to turn back"),
        "r_no_passes": _("no passes through the stock are left in this game"),
        "r_whole_waste": _("the whole waste turns back at once"),
        "r_no_undo": _("there is no move to undo"),
    }
