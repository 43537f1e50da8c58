// Positions of a finished game rebuilt from its record (odin-cards-record/1): one
// snapshot per record event, with every hand. Pure: used by the replay page and tested
// against the engine in tests/browser/test_pages.py.

import { GOAT } from "./cards.js";

/**
 * Replay the record's events into one snapshot per event. The record is the server's
 * (already validated by the engine), so this follows it without re-checking legality.
 */
export function buildSteps(record) {
  const players = record.players;
  const next = (seat) => (seat + 1) % players;
  const steps = [];
  let s = {
    hand: 0,
    hands: Array.from({ length: players }, () => []),
    table: [],
    tablePlayer: null,
    beaten: [],
    discards: [],
    scores: new Array(players).fill(0),
    toMove: null,
    decision: null,
    passes: 0,
    leader: null,
    action: null,
    note: null,
    points: null,
  };
  const snap = (changes) => {
    s = { ...s, ...changes };
    steps.push({ ...s, hands: s.hands.map((c) => [...c]), scores: [...s.scores], table: [...s.table], beaten: [...s.beaten], discards: [...s.discards] });
  };
  let number = 0; // the action's number in the game's log (record.moves_by names some)
  for (const event of record.events) {
    if (event.deal) {
      snap({
        hand: s.hand + 1,
        hands: event.deal.map((c) => [...c]),
        table: [],
        tablePlayer: null,
        beaten: [],
        discards: [],
        toMove: event.leader,
        decision: "lead",
        passes: 0,
        leader: event.leader,
        action: null,
        note: { key: "rp_deal", seat: event.leader },
        points: null,
      });
      continue;
    }
    const seat = event.seat;
    const words = event.action.trim().split(/\s+/);
    const verb = words[0];
    const cards = words.slice(1);
    const hands = s.hands.map((c) => [...c]);
    const action = { seat, text: event.action, number: number++ };
    if (verb === "play") {
      hands[seat] = hands[seat].filter((c) => !cards.includes(c));
      if (!hands[seat].length) {
        const points = hands.map((c) => c.length + (c.includes(GOAT) ? 4 : 0));
        snap({
          hands,
          table: cards,
          tablePlayer: seat,
          beaten: [],
          scores: s.scores.map((p, i) => p + points[i]),
          toMove: null,
          decision: null,
          action,
          note: { key: "rp_hand_end", seat },
          points,
        });
      } else if (!s.table.length) {
        snap({ hands, table: cards, tablePlayer: seat, passes: 0, toMove: next(seat), decision: "follow", action, note: null, points: null });
      } else {
        snap({ hands, beaten: s.table, table: cards, tablePlayer: seat, passes: 0, decision: "take", toMove: seat, action, note: null, points: null });
      }
    } else if (verb === "take") {
      const card = cards[0];
      hands[seat] = [...hands[seat], card];
      snap({
        hands,
        discards: [...s.discards, ...s.beaten.filter((c) => c !== card)],
        beaten: [],
        decision: "follow",
        toMove: next(seat),
        action,
        note: null,
        points: null,
      });
    } else {
      const passes = s.passes + 1;
      if (passes === players - 1) {
        snap({
          discards: [...s.discards, ...s.table],
          table: [],
          passes: 0,
          decision: "lead",
          toMove: s.tablePlayer,
          tablePlayer: null,
          action,
          note: { key: "rp_round", seat: s.tablePlayer },
          points: null,
        });
      } else {
        snap({ passes, toMove: next(seat), action, note: null, points: null });
      }
    }
  }
  return steps;
}
