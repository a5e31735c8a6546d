"""``python -m games.engine deal|replay|moves|solve`` (docs/api.md, Command line); no Django
needed.

Exit status: 0 success, 1 an illegal move (the JSON on stdout says which and why),
2 a usage error (the message on stderr says what to type instead).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from . import commitment, seen
from .cards import CODE
from .catalogue import GAMES, new_game
from .game import Game
from .record import ReplayError, replay
from .solver import cli as solver_cli


def read_moves(stream: TextIO) -> list[str]:
    """Move tokens from a file or a pipe.  Public solvers' output is taken as it is:
    their separator lines are skipped and their closing summary ends the list."""
    tokens: list[str] = []
    for line in stream:
        s = line.strip()
        if s.startswith("-=-="):
            continue
        if s.startswith(("This game is", "I could not solve", "Total number")):
            break
        tokens.extend(s.split())
    return tokens


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("the seed must not be negative")
    return value


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a day is written YYYY-MM-DD, not {text!r}") from None


def _start(args: argparse.Namespace) -> Game:
    try:
        return new_game(args.game, args.seed)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _moves_from(args: argparse.Namespace) -> list[str]:
    moves: list[str] = list(args.moves)
    if moves == ["-"]:
        return read_moves(sys.stdin)
    return moves


def cmd_deal(args: argparse.Namespace) -> int:
    g = _start(args)
    if args.json:
        print(json.dumps(g.layout()))
        return 0
    _print_layout(g)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a revealed daily against its published commitment, then deal it."""
    try:
        ok = commitment.verify(args.game, args.date, args.seed, args.salt, args.commitment)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        "match: this seed and salt are the ones committed to"
        if ok
        else "no match: this seed and salt do not give that commitment"
    )
    _print_layout(_start(args))
    return 0 if ok else 1


def _print_layout(g: Game) -> None:
    for i, pile in enumerate(g.tab):
        d = g.down[i]
        hidden = " ".join(CODE[c] for c in pile[:d])
        shown = " ".join(CODE[c] for c in pile[d:])
        print(f"{hidden} | {shown}" if d else shown)
    if g.draw:
        print("stock (next card last): " + " ".join(CODE[c] for c in g.stock))
    home = [code for pile in g.foundation_cards().values() for code in pile]
    if home:  # only Baker's Dozen sends cards home at the deal; FreeCell's text stays fc-solve's
        print("foundations: " + " ".join(home))


def _replayed(args: argparse.Namespace, moves: list[str]) -> Game | None:
    _start(args)  # clear usage errors before any move
    try:
        return replay(args.game, args.seed, moves)
    except ReplayError as exc:
        print(json.dumps(exc.as_dict()))
        return None


def cmd_replay(args: argparse.Namespace) -> int:
    g = _replayed(args, _moves_from(args))
    if g is None:
        return 1
    score = g.score if g.has_score else None
    print(json.dumps({"won": g.won, "moves": g.moves, "cards_up": g.cards_up, "score": score}))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    g = _replayed(args, _moves_from(args))
    if g is None:
        return 1
    if args.json:
        print(json.dumps(seen.move_objects(g)))
    else:
        for m in g.legal_moves():
            print(g.notation(m))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="Deal, replay and check solitaire games with the site's rules engine.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    games = sorted(GAMES)

    p = sub.add_parser("deal", help="print a deal's full layout (an operator's tool)")
    p.add_argument("game", choices=games)
    p.add_argument("seed", type=_seed)
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(run=cmd_deal)

    p = sub.add_parser("replay", help="replay moves and print the result as JSON")
    p.add_argument("game", choices=games)
    p.add_argument("seed", type=_seed)
    p.add_argument("moves", nargs="*", metavar="MOVE", help="moves, or - to read stdin")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("moves", help="list the legal moves after the given moves")
    p.add_argument("game", choices=games)
    p.add_argument("seed", type=_seed)
    p.add_argument("moves", nargs="*", metavar="MOVE", help="moves, or - to read stdin")
    p.add_argument("--json", action="store_true", help="print move objects as JSON")
    p.set_defaults(run=cmd_moves)

    p = sub.add_parser(
        "verify",
        help="check a revealed daily against its commitment "
        "(docs/deals.md) and print the layout its seed deals",
    )
    p.add_argument("game", choices=games)
    p.add_argument("date", type=_date, help="the day, YYYY-MM-DD")
    p.add_argument("seed", type=_seed)
    p.add_argument("salt", help="32 lowercase hex digits, revealed with the seed")
    p.add_argument("commitment", help="the SHA-256 published before the day")
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("solve")
    solver_cli.configure_parser(p)
    p.set_defaults(run=solver_cli.run)
    return parser


def main(argv: Iterable[str] | None = None) -> int:
    args = build_parser().parse_args(list(argv) if argv is not None else None)
    return int(args.run(args))
