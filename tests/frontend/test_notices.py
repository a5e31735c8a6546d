"""A notice never hides a control (docs/frontend.md, "The table's size and the cards"): on a
desktop (1366×768), a phone held upright (390×844) and on its side (844×390), every kind
of notice the table says -- a refusal, a hint, the search under way, the unsolvable
position's four exits, no more moves, tap to finish, the ranked attempt still open, a
resigned attempt, offline -- leaves every button and link under the table, and the
notice's own exits, whole inside the window and reachable by a click, in English and
in French."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import endgame

from .helpers import play_tokens, tokens_to_dead_end
from .test_finish import _until

SIZES = [(1366, 768), (390, 844), (844, 390)]

# Every control under the table and every exit of the notice: the ones a click cannot
# reach at their middle, or that lie partly outside the window; and where the notice is.
HIDDEN = """() => {
  const out = [];
  const inside = (r) => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  for (const el of document.querySelectorAll('.controls > button, .controls > a, #notice button')) {
    if (el.hidden || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!inside(r) || !hit || !(hit === el || el.contains(hit))) {
      const over = hit ? (hit.id || hit.className || hit.tagName) : 'nothing';
      out.push(`${el.id || el.textContent.trim()} at ${Math.round(r.top)}-${Math.round(r.bottom)} under ${over}`);
    }
  }
  const n = document.getElementById('notice');
  return {hidden: out, notice: n.hidden ? null : n.textContent, shown: !n.hidden && inside(n.getBoundingClientRect()),
          height: innerHeight};
}"""

# A few frames drawn: the resize's and the notice's redraws are done.
FRAMES = """() => new Promise((done) => {
  let n = 0;
  const step = () => (++n < 4 ? requestAnimationFrame(step) : done());
  requestAnimationFrame(step);
})"""

# FreeCell 500 after these moves: the hint's search proves the position unsolvable.
UNSOLVABLE = "1c 6b 5d 6a 27 b2 2b b2 6b 62".split()


# The notice says the page's sentence `key` (frontend/strings.py), in the page's language.
SAYS = """(key) => document.querySelector('#notice span')?.textContent
    === JSON.parse(document.getElementById('page-data').textContent).strings[key]"""


def _check(t: Any, kind: str, what: str, key: str | None = None) -> None:
    """The notice of ``kind`` (saying ``key``) shown, checked on the screen where it
    appeared, then on the others in turn (a phone turned, a window resized: the same page
    sized again)."""
    t.page.locator(f"#notice.{kind}").wait_for(timeout=30000)
    if key:
        t.page.wait_for_function(SAYS, arg=key, timeout=30000)
    here = t.page.viewport_size
    here = (here["width"], here["height"])
    for width, height in [here, *(s for s in SIZES if s != here)]:
        if (width, height) != here:
            t.page.set_viewport_size({"width": width, "height": height})
        # The table is sized again on the frame after the window or the notice changes.
        t.page.evaluate(FRAMES)
        seen = t.page.evaluate(HIDDEN)
        assert seen["notice"], f"{what} at {width}x{height}"
        assert seen["shown"], (
            f"{what} at {width}x{height}: the notice is outside the window ({seen})"
        )
        assert not seen["hidden"], f"{what} at {width}x{height}: {seen}"
    t.page.set_viewport_size({"width": here[0], "height": here[1]})


def _play(t: Any, tokens: list[str]) -> None:
    for tok in tokens:
        seq = t.seq()
        t.page.evaluate("(tok) => window.solitaire.move(tok)", tok)
        t.wait_seq(seq)


def _latency(t: Any, ms: int) -> None:
    cdp = t.page.context.new_cdp_session(t.page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )


# Each test starts on another screen, so that every notice appears on each of them once
# (and is then checked on the two others).
@pytest.mark.parametrize(("locale", "size"), [("en-US", SIZES[0]), ("fr-FR", SIZES[1])])
def test_a_freecell_notice_never_hides_a_control(
    new_table: Any, locale: str, size: tuple[int, int]
) -> None:
    t = new_table(*size, locale=locale).open("freecell", "500")
    # The search under way: the hint's answer is slowed down so that it shows.
    _latency(t, 3000)
    t.page.keyboard.press("h")
    _check(t, "searching", "looking for a hint", "hint_looking")
    _check(t, "hint", "a hint")
    _latency(t, 0)
    # A refusal: free cell 1 is empty.
    t.page.evaluate("() => window.solitaire.move('a1')")
    _check(t, "refusal", "a refusal")
    _play(t, UNSOLVABLE)
    t.page.keyboard.press("h")
    _check(t, "dead", "the unsolvable position's four exits", "hint_unsolvable")
    assert t.page.locator("#notice button").count() == 4
    t.shot(f"notice-unsolvable-{locale[:2]}")
    t.page.context.set_offline(True)
    _check(t, "offline", "offline", "offline")


def test_no_more_moves_never_hides_a_control(new_table: Any) -> None:
    t = new_table(*SIZES[2]).open("freecell", "77")
    play_tokens(t, tokens_to_dead_end(77))
    _check(t, "dead", "no more moves", "no_moves")
    assert t.page.locator("#notice button").count() == 3


@pytest.mark.parametrize(("locale", "size"), [("en-US", SIZES[1]), ("fr-FR", SIZES[2])])
def test_tap_to_finish_never_hides_a_control(
    new_table: Any, kept_deals: dict[str, str], locale: str, size: tuple[int, int]
) -> None:
    t = new_table(*size, locale=locale).open("whitehorse", kept_deals["whitehorse"])
    path, _ = _until("whitehorse", endgame.can_finish)
    play_tokens(t, path)
    _check(t, "info", "tap to finish", "tap_finish")


@pytest.mark.parametrize(("locale", "size"), [("en-US", SIZES[2]), ("fr-FR", SIZES[0])])
def test_a_ranked_dailys_notices_never_hide_a_control(
    new_table: Any, locale: str, size: tuple[int, int]
) -> None:
    t = new_table(*size, locale=locale).open("klondike")
    _play(t, ["s"])
    # The same deal opened by its id while the ranked attempt is open: that attempt, and
    # a notice saying so.
    t.page.goto(f"{t.base}/play/klondike/?deal={t.s['deal']}")
    t.page.wait_for_selector("#table[data-ready]")
    _check(t, "info", "the ranked attempt still open", "ranked_open")
    t.page.once("dialog", lambda d: d.accept())
    t.page.locator("#btn-resign").click()
    t.page.wait_for_function("() => window.solitaire.state.s.status === 'resigned'")
    _check(t, "info", "the attempt resigned", "resigned")
    assert t.page.locator("#notice button").count() == 2
    t.shot(f"notice-resigned-{locale[:2]}")
