// The table page's model, folded from the server's `update` messages: pure functions only
// (no DOM, no storage, no clock), tested apart from the page (tests/browser/
// test_table_state.py). The shell (table.js) keeps one model, replaces it with what
// applyUpdate returns and hands the State and the events to the game's board. Nothing here
// knows a game: a State has `legal` and, by convention, `to_move` and `outcome`
// ({scores, winners}); a game whose State has no `outcome` is over when its table is.

/** A fresh model: nothing received yet. */
export function emptyModel() {
  return { version: null, events: [], state: null };
}

/**
 * Fold one `update` message into the model. Returns {model, gap}: `gap` is true when
 * events were missed (the page must resync: the model is then unchanged but for a null
 * version). Events already held (a repeat) are ignored; a `resync` replaces them all. An
 * event's place in the history is its `index`, or, for a game whose events carry none,
 * where the update puts it: the version counts the events, so they end there.
 */
export function applyUpdate(model, msg) {
  let events;
  if (msg.resync || model.version === null) {
    events = [...msg.events];
  } else {
    events = [...model.events];
    const start = msg.version - msg.events.length;
    for (const [offset, e] of msg.events.entries()) {
      const index = Number.isInteger(e.index) ? e.index : start + offset;
      if (index === events.length) events.push(e);
      else if (index > events.length) return { model: { ...model, version: null }, gap: true };
    }
  }
  return { model: { version: msg.version, events, state: msg.state }, gap: false };
}

/** The events of an update that the page has not shown yet (to announce and animate them). */
export function newEvents(before, after) {
  return after.events.slice(before.version === null ? after.events.length : before.events.length);
}

/**
 * Whether the game is over: the State's `outcome` when it has one (Odin's: null until the
 * end), else the table's status (a State without `outcome`).
 */
export function gameOver(st, table) {
  if (st && Object.hasOwn(st, "outcome")) return Boolean(st.outcome);
  return Boolean(table && table.status === "finished");
}

/** Whether `seat` is to move in the State (never once the game is over). */
export function isMyTurn(st, seat) {
  return Boolean(st && seat !== null && seat !== undefined && st.to_move === seat && !st.outcome);
}

/** Whose turn, as a message key; `seat` names the player to move (the plain words: a
 * board may say more, e.g. what to do). `over`: whether the game is over (gameOver). */
export function turnMessage(st, mySeat, over = Boolean(st && st.outcome)) {
  if (!st) return null;
  if (over) return { key: "game_over", params: {} };
  const seat = st.to_move;
  if (seat === null || seat === undefined) return null;
  if (seat === mySeat) return { key: "turn_you", params: {} };
  return { key: "turn_other", params: {}, seat };
}

/**
 * Whether my acknowledged action's update is still to be shown (it may wait in the queue
 * behind other moves): until it is, the page offers no new action, which the server would
 * refuse as made on an old position.
 */
export function myUpdatePending(version, ackedVersion) {
  return ackedVersion !== null && ackedVersion !== undefined && (version === null || version < ackedVersion);
}

/**
 * The order of the final standings: the winners first, then the others, by score in the
 * direction that puts the winners first (lowest first where the winners scored least, as
 * in a game of penalty points); seat order breaks ties.
 */
export function standingsOrder(outcome, players) {
  const scores = outcome.scores || [];
  const winners = new Set(outcome.winners || []);
  const seats = [...Array(players).keys()];
  const won = seats.filter((s) => winners.has(s)).map((s) => scores[s]);
  const lost = seats.filter((s) => !winners.has(s)).map((s) => scores[s]);
  const lowWins = won.length > 0 && lost.length > 0 && Math.max(...won) < Math.min(...lost);
  const sign = lowWins ? 1 : -1;
  return seats.sort((a, b) => Number(winners.has(b)) - Number(winners.has(a)) || sign * ((scores[a] ?? 0) - (scores[b] ?? 0)) || a - b);
}
