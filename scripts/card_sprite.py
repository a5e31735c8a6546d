"""Writes the card faces, one SVG sprite: ``frontend/static/frontend/cards/cards.svg``.

    .venv/bin/python scripts/card_sprite.py

Drawn here rather than taken from a ready-made deck so that the whole table page stays
small (a deck of 52 drawings is hundreds of kilobytes; this is a few, compressed): four
suit shapes, the pips of 2-10 laid out as on printed cards (the lower half turned), one
figure per court rank, drawn once as a half and turned for the lower half, coloured by
its suit, and a back.  Each card is a ``<symbol>`` named by its code (``7H``, ``QS``) that
the table draws with ``<use href="cards.svg#7H">``.  The corner indices are the page's
own text (table.js), so that a tightly fanned column can size them to what shows.

The drawings are this project's, under its licence (see cards/LICENCE).
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "frontend/static/frontend/cards/cards.svg"
W, H = 200, 280  # a card's box, the 5:7 of a poker card
RED, BLACK, GOLD, SKIN, INK = "#c8102e", "#1b1b1b", "#e2b33c", "#f5d7b5", "#222"
ROBE = {"C": "#1f3f8f", "D": RED, "H": RED, "S": "#1f3f8f"}  # black suits wear blue

SUITS = {
    "H": (
        RED,
        "M50 92C22 68 2 50 2 28 2 12 14 2 28 2 39 2 46 9 50 18 54 9 61 2 72 2 86 2 98 12"
        " 98 28 98 50 78 68 50 92Z",
    ),
    "D": (RED, "M50 2 86 50 50 98 14 50Z"),
    "S": (
        BLACK,
        "M50 2C78 26 98 42 98 61 98 76 87 84 75 84 65 84 57 79 53 72 54 84 58 92 68 98"
        "H32C42 92 46 84 47 72 43 79 35 84 25 84 13 84 2 76 2 61 2 42 22 26 50 2Z",
    ),
    "C": (
        BLACK,
        "M47 62C46 80 41 91 30 98H70C59 91 54 80 53 62 58 72 66 78 75 78 88 78 98 69 98"
        " 56 98 43 88 34 75 34 71 34 67 35 64 37 69 33 72 27 72 21 72 9 62 0 50 0 38 0"
        " 28 9 28 21 28 27 31 33 36 37 33 35 29 34 25 34 12 34 2 43 2 56 2 69 12 78 25"
        " 78 34 78 42 72 47 62Z",
    ),
}

# Pip centres for each count, on printed cards' grid: three columns, rows from the top.
L, C, R = 64, 100, 136
T, B, M = 62, 218, 140
Q1, Q3 = T + (B - T) / 3, T + 2 * (B - T) / 3
LAYOUT: dict[int, list[tuple[float, float]]] = {
    2: [(C, T), (C, B)],
    3: [(C, T), (C, M), (C, B)],
    4: [(L, T), (R, T), (L, B), (R, B)],
    5: [(L, T), (R, T), (C, M), (L, B), (R, B)],
    6: [(L, T), (R, T), (L, M), (R, M), (L, B), (R, B)],
    7: [(L, T), (R, T), (C, (T + M) / 2), (L, M), (R, M), (L, B), (R, B)],
    8: [(L, T), (R, T), (C, (T + M) / 2), (L, M), (R, M), (C, (M + B) / 2), (L, B), (R, B)],
    9: [(L, T), (R, T), (L, Q1), (R, Q1), (C, M), (L, Q3), (R, Q3), (L, B), (R, B)],
    10: [
        (L, T),
        (R, T),
        (C, (T + Q1) / 2),
        (L, Q1),
        (R, Q1),
        (L, Q3),
        (R, Q3),
        (C, (Q3 + B) / 2),
        (L, B),
        (R, B),
    ],
}
RANKS = "A23456789TJQK"


def n(x: float) -> str:
    return f"{x:.0f}" if x == int(x) else f"{x:.1f}"


def pip(suit: str, x: float, y: float, size: float) -> str:
    turn = f' transform="rotate(180 {n(x)} {n(y)})"' if y > M else ""
    h = size / 2
    return (
        f'<use href="#s{suit}" x="{n(x - h)}" y="{n(y - h)}" width="{n(size)}"'
        f' height="{n(size)}"{turn}/>'
    )


# The upper half of each court figure, in the card's box (the lower half is it turned about
# the centre).  ``currentColor`` is the robe, set per suit by the card that uses it.
FACE = (
    f'<circle cx="100" cy="84" r="17" fill="{SKIN}" stroke="{INK}" stroke-width="1.5"/>'
    f'<circle cx="94" cy="82" r="1.8" fill="{INK}"/><circle cx="106" cy="82" r="1.8"'
    f' fill="{INK}"/><path d="M95 92q5 3 10 0" fill="none" stroke="{INK}" stroke-width="1.5"/>'
)
ROBE_HALF = (
    f'<path d="M50 140V124q4-18 30-22 10 8 20 8 10 0 20-8 26 4 30 22V140Z"'
    f' fill="currentColor" stroke="{INK}" stroke-width="1.5"/>'
    f'<path d="M80 102 100 140 120 102" fill="none" stroke="{GOLD}" stroke-width="5"/>'
)
FIGURES = {
    # The king: a crown of three points, a beard, a sword held upright.
    "K": ROBE_HALF
    + FACE.replace('<path d="M95 92', '<path d="M95 93')
    + f'<path d="M84 92q16 26 32 0l-2 10q-14 14-28 0z" fill="#7a4a22" stroke="{INK}"/>'
    + f'<path d="M81 70 79 46 90 58 100 42 110 58 121 46 119 70Z" fill="{GOLD}"'
    f' stroke="{INK}" stroke-width="1.5"/><circle cx="100" cy="62" r="3" fill="currentColor"/>'
    + f'<path d="M140 140V96" stroke="#9aa4ad" stroke-width="5"/><path d="M132 100h16"'
    f' stroke="{GOLD}" stroke-width="4"/>',
    # The queen: long hair, a rounded tiara, a flower.
    "Q": f'<path d="M78 112q-6-34 8-46 14-10 28 0 14 12 8 46z" fill="#5a3417" stroke="{INK}"/>'
    + ROBE_HALF
    + FACE
    + f'<path d="M84 70q4-14 16-16 12 2 16 16q-8-6-16-6t-16 6z" fill="{GOLD}" stroke="{INK}"'
    f' stroke-width="1.5"/><circle cx="100" cy="58" r="3" fill="currentColor"/>'
    + f'<path d="M60 140q2-16 4-26" stroke="#2e7d32" stroke-width="3" fill="none"/>'
    f'<circle cx="64" cy="110" r="7" fill="#f06292" stroke="{INK}"/>',
    # The jack: a cap with a feather, short hair, a halberd.
    "J": f'<path d="M82 88q-4-16 4-22h28q8 6 4 22z" fill="#a0622d" stroke="{INK}"/>'
    + ROBE_HALF
    + FACE
    + f'<path d="M80 72q2-14 20-14t20 14z" fill="currentColor" stroke="{INK}"'
    f' stroke-width="1.5"/><path d="M116 64q16-18 22-30-4 18-16 32" fill="{GOLD}"'
    f' stroke="{INK}"/>'
    + f'<path d="M62 140V92" stroke="#8a5a2b" stroke-width="4"/><path d="M62 92l-8 10h16z'
    f'M62 82v10" fill="#9aa4ad" stroke="{INK}"/>',
}


def court(rank: str, suit: str) -> str:
    frame = (
        f'<rect x="44" y="34" width="112" height="212" rx="6" fill="#fbf1d0"'
        f' stroke="{SUITS[suit][0]}" stroke-width="2"/>'
    )
    half = f'<use href="#f{rank}" color="{ROBE[suit]}"/>{pip(suit, 60, 50, 20)}'
    return (
        frame + f'<g>{half}</g><g transform="rotate(180 100 140)">{half}</g>'
        f'<path d="M46 140H154" stroke="{INK}" stroke-width="1"/>'
    )


def back() -> str:
    lines = []
    for k in range(-260, 200, 16):  # a lattice clipped by hand to the inner panel
        x0, x1 = max(16, k + 16), min(184, k + 16 + 248)
        lines.append(f"M{x0} {16 + x0 - k - 16}L{x1} {16 + x1 - k - 16}")
        lines.append(f"M{200 - x0} {16 + x0 - k - 16}L{200 - x1} {16 + x1 - k - 16}")
    return (
        f'<rect width="{W}" height="{H}" rx="14" fill="#1d4f91"/>'
        f'<path d="{"".join(lines)}" stroke="#3f78c4" stroke-width="3"/>'
        f'<rect x="12" y="12" width="176" height="256" rx="9" fill="none" stroke="#fff"'
        f' stroke-width="4"/><circle cx="100" cy="140" r="34" fill="#1d4f91" stroke="#fff"'
        f' stroke-width="4"/><use href="#sS" x="80" y="118" width="40" height="40"'
        f' color="#fff"/>'
    )


def sprite() -> str:
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg">',
        "<!-- Card faces of Daily Solitaire, drawn by scripts/card_sprite.py -->",
    ]
    for suit, (colour, d) in SUITS.items():
        out.append(
            f'<symbol id="s{suit}" viewBox="0 0 100 100"><path fill="{colour}" d="{d}"/></symbol>'
        )
    for rank, body in FIGURES.items():
        out.append(f'<symbol id="f{rank}" viewBox="0 0 {W} {H}">{body}</symbol>')
    for suit in SUITS:
        for rank in RANKS:
            if rank == "A":
                body = pip(suit, 100, 140, 92 if suit != "S" else 110)
            elif rank in FIGURES:
                body = court(rank, suit)
            else:
                count = 10 if rank == "T" else int(rank)
                body = "".join(pip(suit, x, y, 36) for x, y in LAYOUT[count])
            out.append(f'<symbol id="{rank}{suit}" viewBox="0 0 {W} {H}">{body}</symbol>')
    out.append(f'<symbol id="back" viewBox="0 0 {W} {H}">{back()}</symbol>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(sprite())
    print(OUT, OUT.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
