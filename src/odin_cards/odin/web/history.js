// Folding the public event list (engine `public_events`) into what the table page
// shows: hand-end summaries with the cards each seat had left, and who has passed
// since the set on the table was played.

/**
 * Per finished hand: {hand, ender, cardsLeft[], cards[][], points[], totals[], index}.
 * Cards left are counted from the public events alone (dealt sizes, minus plays, plus
 * takes); `cards` are the cards each seat showed at the hand's end (the `hand_end`
 * event's `cards`, public once the hand is over; empty lists if an event lacks them).
 */
export function handSummaries(events, players) {
  const summaries = [];
  let sizes = new Array(players).fill(0);
  let totals = new Array(players).fill(0);
  let hand = 0;
  for (const e of events) {
    if (e.type === "deal") {
      hand = e.hand;
      sizes = [...e.hand_sizes];
    } else if (e.type === "play") {
      sizes[e.seat] -= e.cards.length;
    } else if (e.type === "take") {
      sizes[e.seat] += 1;
    } else if (e.type === "hand_end") {
      totals = totals.map((p, i) => p + e.points[i]);
      const cards = e.cards ? e.cards.map((left) => [...left]) : sizes.map(() => []);
      summaries.push({ hand, ender: e.seat, cardsLeft: [...sizes], cards, points: [...e.points], totals: [...totals], index: e.index });
    }
  }
  return summaries;
}

/** Seats that passed since the last play of the current round. */
export function passedSeats(events) {
  const passed = new Set();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "pass") passed.add(e.seat);
    else if (e.type === "play" || e.type === "round" || e.type === "deal" || e.type === "hand_end") break;
  }
  return passed;
}

/** The winners of a finished game, from its game_end event (or null). */
export function winnersOf(events) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].type === "game_end") return events[i].winners;
  return null;
}
