// Motion on Odin's board: each move is animated with the Web Animations API (no inline
// styles, so it keeps to the Content-Security-Policy): a play flies from its player to the
// felt, the taken card to the taker and the rest to the discards, a round's end sweeps the
// felt. Speeds: "normal", "fast", "off" (the shell's motion preference; the shell's queue,
// /static/js/queue.js, paces the updates these animate).

const FLIGHT_MS = { normal: 420, fast: 180, off: 0 };

/** The card elements lying on the felt (the set, the beaten set), not the discards. */
function feltCard(root, card) {
  const all = root.querySelectorAll(`[data-testid="table-area"] .card[data-card="${card}"]`);
  return [...all].find((el) => !el.closest(".discards")) || null;
}

/** Rectangles of what may move: the felt's cards by card text, and the felt. */
export function snapshot(root) {
  const cards = {};
  for (const el of root.querySelectorAll('[data-testid="table-area"] .card[data-card]')) {
    if (!el.closest(".discards")) cards[el.dataset.card] = el.getBoundingClientRect();
  }
  return { cards, felt: rectOf(root.querySelector('[data-testid="table-area"]')) };
}

function rectOf(el) {
  return el ? el.getBoundingClientRect() : null;
}

/** Where a seat sits on screen: its place at the table, or my hand. */
function seatRect(root, seat, mySeat) {
  if (seat === mySeat) return rectOf(root.querySelector("#me") || root.querySelector(".myseat"));
  return rectOf(root.querySelector(`.player[data-seat="${seat}"]`));
}

function centre(r) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/**
 * Animate the events just shown. `before`: snapshot() taken before the redraw; `log`
 * receives {type, seat} for each animation started (the tests read it). Returns a promise
 * of the animations' end.
 */
export function animateEvents(events, { root, before, mySeat, speed, makeCard, log }) {
  const ms = FLIGHT_MS[speed] || 0;
  if (!ms || typeof Element.prototype.animate !== "function") return Promise.resolve();
  const runs = [];
  const gone = new Set(); // felt cards already flown away
  // A real card on the felt arrives from where it was played.
  const arrive = (el, from) => {
    const at = centre(el.getBoundingClientRect());
    const dx = from.x - at.x;
    const dy = from.y - at.y;
    const keyframes = [{ transform: `translate(${dx}px, ${dy}px) scale(0.55)`, opacity: 0.4 }, { transform: "none", opacity: 1 }];
    runs.push(el.animate(keyframes, { duration: ms, easing: "cubic-bezier(.2,.7,.2,1)" }).finished.catch(() => {}));
  };
  // A copy of a card that left the felt flies from where it lay to `to`, and fades.
  const leave = (card, to) => {
    const from = before.cards[card];
    if (!from || !to || gone.has(card)) return;
    gone.add(card);
    const el = makeCard(card);
    el.classList.add("ghost-card");
    el.setAttribute("aria-hidden", "true");
    document.body.append(el);
    const own = centre(el.getBoundingClientRect());
    const a = centre(from);
    const b = centre(to);
    const keyframes = [
      { transform: `translate(${a.x - own.x}px, ${a.y - own.y}px)`, opacity: 1 },
      { transform: `translate(${b.x - own.x}px, ${b.y - own.y}px) scale(0.5)`, opacity: 0 },
    ];
    const anim = el.animate(keyframes, { duration: ms, easing: "ease-in" });
    runs.push(anim.finished.catch(() => {}).then(() => el.remove()));
  };
  for (const e of events) {
    if (e.type === "play") {
      const from = seatRect(root, e.seat, mySeat);
      if (!from) continue;
      for (const card of e.cards) {
        const el = feltCard(root, card);
        if (el) arrive(el, centre(from));
      }
      log.push({ type: "play", seat: e.seat });
    } else if (e.type === "take") {
      leave(e.card, seatRect(root, e.seat, mySeat));
      log.push({ type: "take", seat: e.seat });
    } else if (e.type === "discard" && e.seat !== null && e.seat !== undefined) {
      // What the taker did not take goes to the discards.
      const pile = rectOf(root.querySelector(".discards")) || before.felt;
      for (const card of e.cards) leave(card, pile);
      log.push({ type: "discard", seat: e.seat });
    } else if (e.type === "discard" || e.type === "round" || e.type === "hand_end") {
      // The round's end (a discard by nobody) sweeps what lay on the felt off to the side.
      const side = before.felt && { left: before.felt.right, top: before.felt.top, width: 0, height: before.felt.height };
      let swept = false;
      for (const card of Object.keys(before.cards)) {
        if (feltCard(root, card)) continue;
        if (!gone.has(card)) swept = true;
        leave(card, side);
      }
      if (swept) log.push({ type: "sweep", seat: null });
    }
  }
  return Promise.all(runs);
}
