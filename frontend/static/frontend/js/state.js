// The table page's one state object.  Every field is declared here and nowhere else: the
// other modules read and write these, so this list is all the page remembers between two
// events (the server's state, the player's gesture in progress, what the page is saying).
export function createState(meta) {
  return {
    // The game's facts from the page's JSON (frontend/views.py): key, deal, columns, cells,
    // draw, single, supermove, foundation_pickable, send_up.
    meta,
    // Every pile in reading order (table.js pileOrder): ←/→ walk it.
    order: [],
    // The session's connection (connection.js), once the session is found or made.
    conn: null,
    // The server's last state: view, legal_moves, seq, moves, score, cards_up, won,
    // can_finish, no_legal_move, can_undo, status, ranked...  The page never edits it.
    s: null,

    // {pile, index}: the cards from index up, picked by a tap, a key or the picker and
    // waiting for a destination.
    sel: null,
    // {pile, index}: the cards being dragged (never picked at the same time).
    drag: null,
    // The piles where the picked or dragged cards may go (a Set of names), lit up.
    targets: null,
    // The pointer press under way: {id, x, y, pile, index, from, dragging, long, timer}
    // (pile null: the bare table).
    press: null,
    // The last tap, {pile, at, moved} (performance.now(); whether it played a move), so
    // that a second tap on the same pile soon after is a double tap: on a foundation, send
    // up every card that can go; after a move, nothing (a double click acts once).
    lastTap: null,
    // FreeCell's run picker, opened by a long press: the run's pile, its first card, and the
    // arrow the finger is on (so that sliding onto an arrow steps once).
    picker: { open: false, pile: null, index: 0, hover: null },

    // The keyboard's place: a pile and a card in it (-1: the pile itself).
    focus: { pile: 'tableau:0', index: -1 },
    // The last gesture was a key, so a redraw moves the browser's focus too.
    keyboard: false,

    // The hinted move (a legal-move object), marked on the table until the next move.
    hint: null,
    // The AbortController of the hint request in flight, so a move can abandon it.
    hintAsk: null,
    // The finish (or Send up) is playing cards up one by one: the run's number while it
    // lasts (finish.js), false otherwise; any press stops it.
    finishing: false,
    // Where the cards were before a move in flight, so its answer animates from there.
    pendingBefore: null,

    // What the notice bar says now, {text, kind, exits} (exits: command names, each a
    // button); null lets the standing notice (dead end, tap to finish...) show.
    notice: null,
    // Clears a notice that is not sticky.
    noticeTimer: 0,
    // The standing notice last announced, so a screen reader hears it once.
    announced: '',

    // Milliseconds played, counted while the tab is visible, and the clock's last tick.
    // A ranked attempt shows the server's clock instead (it ranks and never pauses):
    elapsed: 0,
    lastTick: 0,
    // the server's clock_ms in the last state, and when (performance.now()) it arrived.
    serverClock: 0,
    serverClockAt: 0,
    // The player closed the win panel to look at the table: it does not open again.
    looked: false,
    // The redraw waiting for the next frame after a resize.
    resizeFrame: 0,
    // The board socket of the live race while the Race strip is open (race.js), else null.
    race: null,
  };
}
