// Odin's board state, derived from the State and the public events: pure functions only
// (no DOM, no storage, no clock), so that they are tested apart from the page (tests/
// browser/test_table_state.py). The board (board.js) keeps its own few facts (selection,
// the summaries seen) and draws from what these return; texts are message keys with
// parameters, so the board translates them and this module stays language-free.
//
// The server stays the authority: what may be played comes from State.legal; the board
// only explains a selection and arranges what it was sent.

import { isMyTurn } from "/static/js/table-model.js";
import { actionCards, judgeSelection, normalizeAction, playText } from "./cards.js";
import { handSummaries, passedSeats } from "./history.js";

/**
 * The hand summaries after the events of an update: {summarySeen, summaryOpen, summary}.
 * `summary` is the summary of a hand that ended in this update, which then lies open
 * (null if none, or at the first State shown, whose past hand ends are history, not news).
 */
export function summaryUpdate({ summarySeen, summaryOpen }, events, players, first) {
  const summaries = handSummaries(events, players);
  let summary = null;
  if (first) summarySeen = summaries.length;
  else if (summaries.length > summarySeen) {
    summarySeen = summaries.length;
    summary = summaries[summaries.length - 1];
    summaryOpen = summary;
  }
  return { summarySeen, summaryOpen, summary };
}

/** The selection kept after the hand changed: only cards still held, in the same order. */
export function keepSelection(selection, hand) {
  if (!hand) return [];
  const held = new Set(hand);
  return selection.filter((c) => held.has(c));
}

/** Select or unselect a card. */
export function toggleSelection(selection, card) {
  return selection.includes(card) ? selection.filter((c) => c !== card) : [...selection, card];
}

/** Whose turn and what to do, as a message key; `seat` names the player to move. */
export function turnMessage(st, mySeat) {
  if (!st) return null;
  if (st.outcome) return { key: "game_over", params: {} };
  const seat = st.to_move;
  if (seat === null || seat === undefined) return null;
  if (seat === mySeat) {
    if (st.decision === "lead") return { key: "turn_you_lead", params: {} };
    if (st.decision === "take") return { key: "turn_you_take", params: {} };
    return { key: "turn_you_follow", params: { value: st.table_value } };
  }
  if (st.decision === "lead") return { key: "turn_other_lead", params: {}, seat };
  if (st.decision === "take") return { key: "turn_other_take", params: {}, seat };
  return { key: "turn_other_follow", params: {}, seat };
}

/** Seats in play order starting at my left neighbour (at seat 0 for a spectator). */
export function seatOrder(players, mySeat) {
  const first = mySeat === null || mySeat === undefined ? 0 : (mySeat + 1) % players;
  return Array.from({ length: players }, (_, i) => (first + i) % players);
}

/**
 * Where each seat sits around the table, clockwise from my left: "bottom" (me), "left",
 * "top" and "right". Two opponents or fewer sit at the top; with more, the first sits on
 * the left and the last on the right. A spectator sees every seat around the table.
 */
export function seatPlaces(players, mySeat) {
  const order = seatOrder(players, mySeat);
  const others = mySeat === null || mySeat === undefined ? order : order.slice(0, -1);
  const places = others.map((seat, i) => {
    let place = "top";
    if (others.length >= 3 && i === 0) place = "left";
    if (others.length >= 3 && i === others.length - 1) place = "right";
    return { seat, place };
  });
  if (others.length !== order.length) places.push({ seat: mySeat, place: "bottom" });
  return places;
}

/** What the table shows of one seat: to move, passed, first leader, hand size, known cards. */
export function seatStatus(st, events, seat) {
  const passed = passedSeats(events);
  return {
    toMove: seat === st.to_move && !st.outcome,
    passed: passed.has(seat),
    leader: seat === st.hand_leader,
    handSize: st.hand_sizes[seat],
    points: st.scores[seat],
    known: (st.known && st.known[seat]) || [],
  };
}

/** Cards that are part of at least one legal play. */
export function usableCards(legal) {
  const usable = new Set();
  for (const a of legal || []) if (a.startsWith("play ")) for (const c of actionCards(a)) usable.add(c.toUpperCase());
  return usable;
}

/** Cards that may be taken now (empty unless it is my take). */
export function takeableCards(legal) {
  return (legal || []).filter((a) => a.startsWith("take ")).map((a) => actionCards(a)[0].toUpperCase());
}

/**
 * The selection judged against the position: {key, params} explaining it, `verdict`
 * (true: playable, false: not, null: nothing to judge), and whether Play, Pass and Clear
 * are enabled (before connection state). `touch`: the hint says "tap", else "click".
 */
export function selectionVerdict(st, mySeat, selection, touch = false) {
  const legal = new Set(((st && st.legal) || []).map(normalizeAction));
  const mine = isMyTurn(st, mySeat);
  const canPlay = mine && selection.length > 0 && legal.has(normalizeAction(playText(selection)));
  const canPass = mine && legal.has("pass");
  const canClear = selection.length > 0;
  const base = { canPlay, canPass, canClear, verdict: null, key: "", params: {} };
  if (!st || !st.hand) return base;
  if (mine && st.decision === "take") return { ...base, key: "choose_take" };
  if (!selection.length) {
    if (mine && st.decision === "follow" && !usableCards(st.legal).size) return { ...base, key: "cannot_beat" };
    if (!mine) return base;
    return touch ? { ...base, key: "select_hint_tap" } : { ...base, key: "select_hint_click" };
  }
  const judged = judgeSelection(selection, {
    decision: st.decision,
    hand: st.hand,
    tableCards: st.table,
    tableValue: st.table_value,
  });
  return { ...base, key: `sel_${judged.status}`, params: judged.params, verdict: mine ? canPlay : null };
}

/**
 * A seat's score as the viewer chose to see it: penalty points ("points") or what is left
 * before the target ("countdown", never below 0, as on Board Game Arena). `fill` is the
 * score bar's length from 0 to 1: points towards the target, or the points still left.
 */
export function scoreShown(points, options, view) {
  const target = options && !options.one_hand ? options.target : null;
  if (target === null) return { key: "points_short", n: points, fill: null };
  if (view === "countdown") {
    const left = Math.max(0, target - points);
    return { key: "left_short", n: left, fill: left / target };
  }
  return { key: "points_short", n: points, fill: Math.min(1, points / target) };
}

/**
 * A public event told in words for screen readers: {key, params, seat}; the page adds the
 * seat's name as the `name` parameter.
 */
export function eventMessage(e) {
  switch (e.type) {
    case "play":
      return { key: "say_play", params: { cards: e.text.replace(/^play /, ""), value: e.value }, seat: e.seat };
    case "take":
      return { key: "say_take", params: { card: e.card }, seat: e.seat };
    case "pass":
      return { key: "say_pass", params: {}, seat: e.seat };
    case "round":
      return { key: "log_round", params: {}, seat: e.leader };
    case "deal":
      return { key: "log_deal", params: { n: e.hand }, seat: e.leader };
    case "hand_end":
      return { key: "log_hand_end", params: {}, seat: e.seat };
    default:
      return null;
  }
}

/** The card to focus after an arrow key in a row of `count` cards (wraps around). */
export function nextCardIndex(count, index, key) {
  if (!count) return -1;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  const step = key === "ArrowRight" || key === "ArrowDown" ? 1 : key === "ArrowLeft" || key === "ArrowUp" ? -1 : 0;
  if (index < 0) return step < 0 ? count - 1 : 0;
  return (index + step + count) % count;
}

/** Where the current round began: the index of the last deal or round event (-1: none). */
export function roundKey(events) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].type === "deal" || events[i].type === "round") return events[i].index;
  return -1;
}

/**
 * The move the viewer's automation preferences make now, or null: {action, key, params}
 * where key names the message that logs it. `prefs`: {autoPass, autoTake}; `passRound`:
 * the roundKey at which "pass for the rest of this round" was chosen (null: not chosen),
 * valid while that round lasts. Never a lead, never a play: only pass and take.
 */
export function automaticAction(st, mySeat, events, prefs, passRound) {
  if (!isMyTurn(st, mySeat) || !st.legal) return null;
  if (st.decision === "take") {
    const takes = takeableCards(st.legal);
    if (prefs.autoTake && takes.length === 1) return { action: `take ${takes[0]}`, key: "auto_take_done", params: { card: takes[0] } };
    return null;
  }
  if (st.decision !== "follow" || !st.legal.includes("pass")) return null;
  if (passRound !== null && passRound !== undefined && passRound === roundKey(events)) {
    return { action: "pass", key: "pass_round_done", params: {} };
  }
  if (prefs.autoPass && !usableCards(st.legal).size) return { action: "pass", key: "auto_pass_done", params: { value: st.table_value } };
  return null;
}
