// Odin's first-game tutorial, /games/odin/tutorial (a game's page, docs/ui.md): one scripted
// hand against a tutor, in the browser only (no server, no table). Each step asks for one move that
// teaches a rule by doing it: beating with one card more, the take, leading a round, a
// number set, passing, getting rid of cards, the finishing lead. Any other move is refused
// with a hint.

import { judgeSelection, normalizeAction, playText, setValue, sortCards } from "./cards.js";
import { t } from "/static/js/i18n.js";
import { clear, h } from "/static/js/ui.js";
import { cardEl, cardLabel, cardRow } from "./card-view.js";

const DEAL = ["B2", "B8", "R7", "G5", "K5", "B5", "O3", "O6", "O9"];
const TUTOR_CARDS = 9;

// Each step: what the tutor does first, then the one move I am asked to make.
const STEPS = [
  { tutor: [{ play: ["B4"] }], ask: "play B2 B8", say: "tut_beat_more" },
  { tutor: [], ask: "take B4", say: "tut_take" },
  { tutor: [{ pass: true }], ask: "play R7", say: "tut_lead" },
  { tutor: [{ play: ["O8"] }, { take: "R7" }], ask: "play G5 K5", say: "tut_number_set" },
  { tutor: [], ask: "take O8", say: "tut_take_choice" },
  { tutor: [{ play: ["K9", "P9"] }, { take: "K5" }], ask: "pass", say: "tut_pass" },
  { tutor: [{ won: true }, { play: ["O1"] }], ask: "play B4 B5", say: "tut_leftovers" },
  { tutor: [], ask: "take O1", say: "tut_take_last" },
  { tutor: [{ pass: true }], ask: "play O1 O3 O6 O8 O9", say: "tut_finish" },
];

const M = {
  step: -1,
  hand: [...DEAL],
  tutorCards: TUTOR_CARDS,
  table: null, // {cards, by: "me" | "tutor"}
  beaten: null, // the set I beat and must take from
  discards: [],
  selection: [],
  wrong: false,
  done: false,
  moves: [], // what happened, in words
  ask: null, // the move the current step asks for
};
// The test hook (docs/ui.md, The test hook): the step, the move it asks for, a wrong move.
Object.defineProperty(window, "odinTutorial", {
  value: Object.freeze({
    get step() {
      return M.step;
    },
    get ask() {
      return M.ask;
    },
    get wrong() {
      return M.wrong;
    },
  }),
});

let main = null; // the page's <main>, given to start

function who(by) {
  return by === "me" ? t("you_name") : t("tut_tutor");
}

/** The tutor's scripted moves before a step. */
function tutorMoves(moves) {
  for (const move of moves) {
    if (move.play) {
      if (M.table) M.beaten = M.table;
      M.table = { cards: move.play, by: "tutor" };
      M.tutorCards -= move.play.length;
      M.moves.push(t("say_play", { name: t("tut_tutor"), cards: move.play.map(cardLabel).join(", "), value: setValue(move.play) }));
    } else if (move.take) {
      M.tutorCards += 1;
      M.discards.push(...M.beaten.cards.filter((c) => c !== move.take));
      M.beaten = null;
      M.moves.push(t("say_take", { name: t("tut_tutor"), card: cardLabel(move.take) }));
    } else if (move.pass) {
      // Everybody else passed: the round is over, my set is discarded and I lead.
      M.discards.push(...M.table.cards);
      M.table = null;
      M.moves.push(t("say_pass", { name: t("tut_tutor") }));
    } else if (move.won) {
      M.discards.push(...M.table.cards);
      M.table = null;
    }
  }
}

function next() {
  M.step += 1;
  M.wrong = false;
  M.selection = [];
  if (M.step >= STEPS.length) {
    M.done = true;
    M.ask = null;
  } else {
    tutorMoves(STEPS[M.step].tutor);
    M.ask = STEPS[M.step].ask;
  }
  render();
}

/** My move: accepted when it is the one the step asks for. */
function move(action) {
  const step = STEPS[M.step];
  if (!step || normalizeAction(action) !== normalizeAction(step.ask)) {
    M.wrong = true;
    render();
    return;
  }
  const [verb, ...cards] = step.ask.split(" ");
  if (verb === "play") {
    M.hand = M.hand.filter((c) => !cards.includes(c));
    if (M.table) M.beaten = M.table;
    M.table = { cards, by: "me" };
  } else if (verb === "take") {
    M.hand.push(cards[0]);
    M.discards.push(...M.beaten.cards.filter((c) => c !== cards[0]));
    M.beaten = null;
  }
  M.moves.push(verb === "pass" ? t("say_pass", { name: t("you_name") }) : `${t("you_name")}: ${step.ask}`);
  next();
}

function render() {
  const step = STEPS[M.step];
  const say = M.done ? t("tut_done", { n: M.tutorCards }) : t(step.say);
  const banner = h("div.turn-banner.mine", { "data-testid": "tutorial-say", role: "status" }, say);
  const felt = h("section.table-area", { "data-testid": "table-area", "aria-label": t("table_set") });
  const taking = step && step.ask.startsWith("take ") && M.beaten;
  if (taking) {
    felt.append(
      h("div.felt-label", {}, t("choose_take")),
      h(
        "div.card-row.take-row",
        {},
        M.beaten.cards.map((card) => {
          const el = cardEl(card, { size: "lg", button: true, onclick: () => move(`take ${card}`) });
          el.classList.add("takeable");
          return el;
        }),
      ),
    );
  } else if (M.table) {
    felt.append(
      h("div.felt-label", {}, t("played_by", { name: who(M.table.by) }), " · ", t("value_is", { value: setValue(M.table.cards) })),
      h("div.card-row.table-set", {}, M.table.cards.map((c) => cardEl(c, { size: "lg" }))),
    );
  } else if (!M.done) {
    felt.append(h("div.felt-empty", {}, t("tut_you_lead")));
  }
  const tutor = h(
    "article.player.place-top",
    { "data-seat": "1" },
    h("div.player-head", {}, h("span.player-name", {}, t("tut_tutor"))),
    h("div.player-line", {}, h("span.count", {}, t("cards_in_hand", { n: M.tutorCards }))),
  );
  const judged = M.selection.length
    ? judgeSelection(M.selection, { decision: M.table ? "follow" : "lead", hand: M.hand, tableCards: M.table ? M.table.cards : [], tableValue: M.table ? setValue(M.table.cards) : 0 })
    : null;
  const hand = h(
    "div.hand",
    { "data-testid": "hand", role: "group", "aria-label": t("your_hand_n", { n: M.hand.length }) },
    sortCards(M.hand).map((card) =>
      cardEl(card, {
        size: "lg",
        button: true,
        selected: M.selection.includes(card),
        onclick: () => {
          M.selection = M.selection.includes(card) ? M.selection.filter((c) => c !== card) : [...M.selection, card];
          render();
          const again = main.querySelector(`[data-testid="hand"] button[data-card="${card}"]`);
          if (again) again.focus();
        },
      }),
    ),
  );
  const actions = h(
    "div.actions",
    {},
    h("button.primary", { type: "button", "data-testid": "play", disabled: !M.selection.length || M.done, onclick: () => move(playText(M.selection)) }, t("play")),
    h("button.secondary", { type: "button", "data-testid": "pass", disabled: M.done || !M.table, onclick: () => move("pass") }, t("pass")),
  );
  clear(main).append(
    h(
      "div.tutorial",
      {},
      h("h1", {}, t("tut_title")),
      banner,
      M.wrong ? h("p.tutorial-wrong", { role: "alert", "data-testid": "tutorial-wrong" }, t("tut_wrong")) : null,
      h("div.tutorial-table", {}, tutor, felt),
      h(
        "section.myseat",
        { "aria-label": t("your_hand") },
        M.done
          ? h(
              "div.actions",
              {},
              h("a.button.primary", { href: "/", "data-testid": "tutorial-real" }, t("tut_play_real")),
              h("button.secondary", { type: "button", onclick: () => location.reload() }, t("tut_again")),
            )
          : h(
              "div.myhand",
              { id: "me" },
              hand,
              h("div.hand-foot", {}, h("div.selection", { "aria-live": "polite" }, judged ? t(`sel_${judged.status}`, judged.params) : ""), actions),
            ),
      ),
      M.moves.length ? h("ol.log.tutorial-log", { "aria-label": t("move_log") }, M.moves.slice(-4).map((m) => h("li", {}, m))) : null,
    ),
  );
}

/** The page, drawn into `element`. */
export function start(element) {
  main = element;
  document.title = `${t("tut_title")} · Odin`;
  next();
}
