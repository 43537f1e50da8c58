// Odin's board (docs/ui.md, Boards): the table page's game and the replay's positions. The
// shell (/static/js/table.js) gives it a context and calls update() with every State; this
// module draws the other players around the felt, the set on it, my seat with my hand and
// Play / Pass / Clear, the hand summaries, and the scores tab; it keeps the card selection,
// the sort, the score view and the automation (pass, take, pass round) of this viewer.
//
// Legal actions come from State.legal: the board explains a selection (value, does it beat
// the table) but never decides legality on its own.

import { api } from "/static/js/api.js";
import { optionsSummaryText } from "./options-text.js";
import { isMyTurn } from "/static/js/table-model.js";
import { clear, h } from "/static/js/ui.js";
import { playText, sortCards } from "./cards.js";
import { backsEl, cardEl, cardLabel, cardRow } from "./card-view.js";
import { explainEngine } from "./errors.js";
import { handSummaries, winnersOf } from "./history.js";
import { animateEvents, snapshot } from "./motion.js";
import { buildSteps } from "./replay-steps.js";
import { replayBoard } from "./replay-board.js";
import { statisticsPanel, TableStatistics } from "./statistics.js";
import {
  automaticAction,
  eventMessage,
  keepSelection,
  nextCardIndex,
  roundKey,
  scoreShown,
  seatPlaces,
  seatStatus,
  selectionVerdict,
  summaryUpdate,
  takeableCards,
  toggleSelection,
  turnMessage,
  usableCards,
} from "./table-state.js";

const SORT_KEY = "odin.sort";
const SCORE_KEY = "odin.scoreView";
/** How long a hand's summary holds the next hand's moves, unless closed first. */
const HOLD_MS = 6000;
/** The automation waits this long after a position shows, so that the move can be seen. */
const AUTOMATION_MS = 400;

// Sounds by importance: one per update, the most important of its events.
const SOUNDS = [
  ["game_end", "game"],
  ["hand_end", "hand"],
  ["round", "round"],
  ["take", "take"],
  ["play", "play"],
];

/** The table's options in words (the lobby's lists, the waiting room, the side panel). */
export function describeOptions(options, players) {
  return optionsSummaryText(options, players);
}

/** Odin's fields of the lobby's create form. */
export { optionsForm } from "./options-form.js";

/** The automation preferences (kept with the shell's, prefs.js): off unless set. */
function automation(prefs) {
  return { autoPass: prefs.autoPass === true, autoTake: prefs.autoTake === true };
}

/** The board of the table page in `root`, drawing through the shell's context `ctx`. */
export function mount(root, ctx) {
  const t = ctx.t;
  const B = {
    state: null,
    events: [],
    version: null,
    selection: [], // the cards selected in my hand
    sortBy: localStorage.getItem(SORT_KEY) === "number" ? "number" : "colour",
    // Scores as penalty points counting up, or counting down from the target (as on Board
    // Game Arena): the same rules, two presentations (RULES.md).
    scoreView: localStorage.getItem(SCORE_KEY) === "countdown" ? "countdown" : "points",
    passRound: null, // roundKey of the round I pass for to its end (null: not chosen)
    autoVersion: null, // the version my automation last acted at (never twice at one)
    summarySeen: 0, // hand summaries already seen (a summary opens for the next one only)
    summaryOpen: null, // the hand summary lying over the felt
    holdMs: null, // how long a summary holds the next hand (null: HOLD_MS); tests lengthen it
    motionLog: [], // {type, seat} of each animation started (motion.js), for the tests
    statistics: null, // the TableStatistics, once the game is over
    automationTimer: null,
  };
  root.classList.add("odin-board");

  const nameOf = (seat) => ctx.nameOf(seat);
  const isMine = (seat) => ctx.seat !== null && seat === ctx.seat;
  const legal = () => (B.state && B.state.legal) || [];
  const busy = () => !ctx.canAct();

  function act(text) {
    ctx.act(text);
  }

  // ------------------------------------------------------------------ my hand

  function toggleCard(card) {
    B.selection = toggleSelection(B.selection, card);
    ctx.keepFocus(() => {
      renderHand();
      renderActions();
    });
  }

  function playSelection() {
    if (!selectionVerdict(B.state, ctx.seat, B.selection).canPlay) return;
    // The selection stays until the update removes the played cards from the hand, so
    // that a refused action (a stale version) can simply be played again.
    act(playText(B.selection));
  }

  /** Arrow keys, Home and End move between the cards; Enter plays the selection. */
  function onHandKey(event) {
    const buttons = [...event.currentTarget.querySelectorAll("button.card")];
    const index = buttons.indexOf(document.activeElement);
    if (event.key === "Enter") {
      event.preventDefault(); // Space selects (the button's own click); Enter plays
      playSelection();
      return;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
    const next = nextCardIndex(buttons.length, index, event.key);
    if (next >= 0) {
      event.preventDefault();
      buttons[next].focus();
    }
  }

  function renderHand() {
    const me = root.querySelector("#me");
    const st = B.state;
    if (!me || !st || !st.hand) return;
    clear(me);
    const myTurn = isMyTurn(st, ctx.seat);
    const usable = usableCards(legal());
    const sortButtons = h(
      "div.segmented",
      { role: "group", "aria-label": t("sort_by") },
      ["colour", "number"].map((by) =>
        h(
          "button",
          {
            type: "button",
            "aria-pressed": B.sortBy === by ? "true" : "false",
            "data-testid": `sort-${by}`,
            onclick: () => {
              B.sortBy = by;
              localStorage.setItem(SORT_KEY, by);
              ctx.keepFocus(() => {
                renderHand();
                renderActions();
              });
            },
          },
          t(`sort_${by}`),
        ),
      ),
    );
    const cards = sortCards(st.hand, B.sortBy).map((card) => {
      const el = cardEl(card, { size: "lg", button: true, selected: B.selection.includes(card), onclick: () => toggleCard(card) });
      if (myTurn && st.decision !== "take" && !usable.has(card)) el.classList.add("unusable");
      return el;
    });
    me.append(
      h(
        "div.hand",
        { "data-testid": "hand", "data-focus-home": "", role: "group", "aria-label": t("your_hand_n", { n: st.hand.length }), onkeydown: onHandKey },
        cards,
      ),
      h("div.hand-foot", {}, h("div.selection", { id: "selection", "aria-live": "polite" }), sortButtons, h("div.actions", { id: "actions" })),
    );
  }

  function renderActions() {
    const st = B.state;
    const box = root.querySelector("#actions");
    const selBox = root.querySelector("#selection");
    if (!st || !box) return;
    // "Tap" on touch screens, "click" (and the keys) with a mouse.
    const verdict = selectionVerdict(st, ctx.seat, B.selection, matchMedia("(pointer: coarse)").matches);
    const waiting = busy();
    const passingRound = B.passRound !== null && B.passRound === roundKey(B.events);
    if (ctx.handedToBot()) {
      // A bot plays my seat (I left, or missed moves): the one thing to do here is take it back.
      if (selBox) selBox.textContent = t("bot_for", { name: nameOf(ctx.seat) });
      clear(box).append(ctx.takeBackButton());
      return;
    }
    if (selBox) {
      selBox.textContent = verdict.key ? t(verdict.key, verdict.params) : "";
      selBox.className = `selection ${verdict.verdict === true ? "ok" : verdict.verdict === false ? "bad" : ""}`;
    }
    const redraw = () =>
      ctx.keepFocus(() => {
        renderHand();
        renderActions();
      });
    clear(box).append(
      h("button.primary.play", { type: "button", disabled: !verdict.canPlay || waiting, onclick: playSelection, "data-testid": "play" }, t("play")),
      h("button.secondary.pass", { type: "button", disabled: !verdict.canPass || waiting, onclick: () => act("pass"), "data-testid": "pass" }, t("pass")),
      h(
        "button.ghost.pass-round",
        {
          type: "button",
          "aria-pressed": passingRound ? "true" : "false",
          disabled: isMyTurn(st, ctx.seat) && st.decision !== "follow" && !passingRound,
          title: t("pass_round_help"),
          "data-testid": "pass-round",
          onclick: () => {
            B.passRound = passingRound ? null : roundKey(B.events);
            B.autoVersion = null;
            ctx.redraw();
          },
        },
        t("pass_round"),
      ),
      h(
        "button.ghost.clear",
        {
          type: "button",
          disabled: !verdict.canClear,
          "data-testid": "clear",
          onclick: () => {
            B.selection = [];
            redraw();
          },
        },
        t("clear"),
      ),
      // (append writes a null as the text "null": no hint control, nothing)
      ctx.hint((action) => {
        if (action.startsWith("play ")) B.selection = action.split(/\s+/).slice(1);
      }, redraw) || "",
    );
  }

  // ------------------------------------------------------------------ the table

  /** A seat's score as the viewer chose to see it: points, or points left to the target. */
  function scoreText(st, points) {
    const shown = scoreShown(points, st.options, B.scoreView);
    return t(shown.key, { n: shown.n });
  }

  /** One player's place at the table: name, points, hand size, status, known cards. */
  function renderPlayer(st, seat, place) {
    const status = seatStatus(st, B.events, seat);
    const classes = ["player", `place-${place}`];
    if (status.toMove) classes.push("to-move");
    if (isMine(seat)) classes.push("me");
    if (status.passed) classes.push("passed");
    const badges = ctx.seatBadges(seat);
    if (status.toMove) badges.push(h("span.badge.turn", { title: t("to_move") }, t("to_move")));
    if (status.passed) badges.push(h("span.badge.pass", { title: t("passed") }, t("passed")));
    if (status.leader) badges.push(h("span.badge.leader", { title: t("hand_leader") }, t("hand_leader_short")));
    const known = status.known;
    return h(
      "article",
      { class: classes.join(" "), "data-seat": String(seat), "aria-current": status.toMove ? "true" : null },
      h("div.player-head", {}, ctx.seatHead(seat)),
      h("div.player-line", {}, h("span.player-score", { title: t("points") }, scoreText(st, status.points)), backsEl(status.handSize)),
      h("div.badges", {}, badges),
      known.length && !isMine(seat) ? h("div.known", { title: t("known_cards") }, h("span.small", {}, t("known_cards")), cardRow(known, "xs")) : null,
    );
  }

  /** My seat at the bottom of the table: my line (like the others'), my hand, the buttons. */
  function renderMySeat(st) {
    return h("section.myseat", { "aria-label": t("your_hand") }, renderPlayer(st, ctx.seat, "bottom"), st.hand ? h("div.myhand", { id: "me" }) : null);
  }

  function renderTableArea(st) {
    const area = h("section.table-area", { "aria-label": t("table_set"), "data-testid": "table-area" });
    if (st.outcome) {
      // The game's end: the standings and the last hand's summary take the felt.
      const summaries = handSummaries(B.events, st.players);
      const last = summaries[summaries.length - 1];
      area.classList.add("game-end");
      area.append(renderFinal(st), last ? renderSummary(last) : "");
      return area;
    }
    // A hand's end: its summary lies over the felt, the table still visible around it.
    if (B.summaryOpen) area.append(renderSummary(B.summaryOpen));
    if (st.decision === "take" && st.beaten && st.beaten.length) {
      const taker = st.to_move;
      const mine = isMine(taker);
      const takes = new Set(takeableCards(legal()));
      area.append(
        h("div.felt-label", {}, mine ? t("choose_take") : t("other_chooses_take", { name: nameOf(taker) })),
        h(
          "div.card-row.take-row",
          {},
          st.beaten.map((card) =>
            mine ? cardEl(card, { size: "lg", button: true, onclick: () => takes.has(card) && act(`take ${card}`) }) : cardEl(card, { size: "md" }),
          ),
        ),
        h("div.felt-sub", {}, t("beaten_by", { name: nameOf(taker) }), " ", cardRow(st.table, "sm")),
      );
      if (mine) for (const btn of area.querySelectorAll("button.card")) btn.classList.add("takeable");
      return area;
    }
    if (st.table && st.table.length) {
      area.append(
        h("div.felt-label", {}, t("played_by", { name: nameOf(st.table_player) }), " · ", h("span.value", {}, t("value_is", { value: st.table_value }))),
        h("div.card-row.table-set", { "data-testid": "table-set" }, st.table.map((c) => cardEl(c, { size: "lg" }))),
      );
    } else if (!st.outcome) {
      area.append(h("div.felt-empty", {}, t("table_empty", { name: nameOf(st.to_move) })));
    }
    if (st.discards && st.discards.length) {
      area.append(h("details.discards", {}, h("summary", {}, t("discards", { n: st.discards.length })), cardRow(sortCards(st.discards), "xs")));
    }
    return area;
  }

  /** Who ended a hand, with the play that ended it. */
  function finalPlay(summary) {
    const last = B.events.slice(0, summary.index).reverse().find((e) => e.type === "play");
    return h("p.final-play", { "data-testid": "final-play" }, t("hand_ended_by", { name: nameOf(summary.ender) }), last ? cardRow(last.cards, "sm") : null);
  }

  /** Close the hand's summary and show the moves it held back. */
  function closeSummary() {
    B.summaryOpen = null;
    ctx.redraw();
    ctx.release();
  }

  function renderSummary(summary) {
    const st = B.state;
    const rows = summary.points.map((points, seat) =>
      h(
        "tr",
        { class: isMine(seat) ? "me" : "" },
        h("th", { scope: "row" }, nameOf(seat)),
        h(
          "td.left",
          { "data-testid": "cards-left" },
          h("div.left-cards", {}, h("span.left-count", {}, String(summary.cardsLeft[seat])), summary.cards[seat].length ? cardRow(summary.cards[seat], "xs") : null),
        ),
        h("td.num", {}, `+${points}`),
        h("td.num", {}, String(summary.totals[seat])),
      ),
    );
    return h(
      "section.panel.summary",
      { "data-testid": "hand-summary", role: "region", "aria-label": t("hand_over", { n: summary.hand }) },
      h(
        "div.summary-head",
        {},
        h("h2", {}, t("hand_over", { n: summary.hand })),
        st && !st.outcome ? h("button.primary", { type: "button", "data-testid": "summary-continue", onclick: closeSummary }, t("continue")) : null,
      ),
      finalPlay(summary),
      h(
        "table.summary-table",
        {},
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th.left", {}, t("cards_left")), h("th", {}, t("points")), h("th", {}, t("total")))),
        h("tbody", {}, rows),
      ),
    );
  }

  /** The shell's end frame, with Odin's scores, the game hand by hand and its statistics. */
  function renderFinal(st) {
    const winners = st.outcome.winners || winnersOf(B.events) || [];
    const order = [...Array(st.players).keys()].sort((a, b) => st.outcome.scores[a] - st.outcome.scores[b]);
    return ctx.endFrame({
      order,
      winners,
      score: (seat) => scoreText(st, st.outcome.scores[seat]),
      extra: () => [renderGameStats(st, order), renderStatistics(order)],
    });
  }

  /** The game's statistics and points chart, from its record (statistics.js). */
  function renderStatistics(order) {
    B.statistics = B.statistics || new TableStatistics(() => api.record(ctx.tableId));
    const options = ctx.table && ctx.table.options;
    const target = options && !options.one_hand ? options.target : null;
    return B.statistics.element((stats) => statisticsPanel(stats, { nameOf, order, target }));
  }

  /** The game hand by hand: each player's points per hand (from the public events). */
  function renderGameStats(st, order) {
    const hands = handSummaries(B.events, st.players);
    if (!hands.length) return null;
    return h(
      "section.game-stats",
      { "data-testid": "game-stats" },
      h("h3", {}, t("hand_by_hand", { n: hands.length })),
      h(
        "div.stats-scroll",
        { tabindex: "0", role: "region", "aria-label": t("hand_by_hand", { n: hands.length }) },
        h(
          "table.summary-table",
          {},
          h(
            "thead",
            {},
            h("tr", {}, h("th", {}, ""), hands.map((hand) => h("th", { scope: "col" }, t("hand_short", { n: hand.hand }))), h("th", { scope: "col" }, t("total"))),
          ),
          h(
            "tbody",
            {},
            order.map((seat) =>
              h(
                "tr",
                { class: isMine(seat) ? "me" : "" },
                h("th", { scope: "row" }, nameOf(seat)),
                hands.map((hand) => h("td.num", {}, String(hand.points[seat]))),
                h("td.num", {}, String(st.outcome.scores[seat])),
              ),
            ),
          ),
        ),
      ),
    );
  }

  /**
   * The one-screen table: the other players around the felt, the set on the table in the
   * middle, my seat and hand at the bottom with Play / Pass / Clear (the shell draws the
   * turn banner above and the side panel beside).
   */
  function draw(st) {
    const places = seatPlaces(st.players, ctx.seat);
    const around = { left: [], top: [], right: [] };
    for (const { seat, place } of places) if (place !== "bottom") around[place].push(renderPlayer(st, seat, place));
    const ring = h(
      "div.ring",
      { role: "group", "aria-label": t("players"), class: `opponents-${places.filter((p) => p.place !== "bottom").length}` },
      h("div.seats-top", {}, around.top),
      h("div.seats-left", {}, around.left),
      h("div.seats-right", {}, around.right),
      renderTableArea(st),
    );
    const mine = ctx.seat !== null && !st.outcome ? renderMySeat(st) : null;
    root.replaceChildren(ring, ...(mine ? [mine] : []));
    renderHand();
    renderActions();
  }

  // ------------------------------------------------------------------ automation

  /**
   * My automation preferences act a moment after the position shows (so that the move can
   * be seen), once per version, and each action is logged where I can see it.
   */
  function scheduleAutomation() {
    clearTimeout(B.automationTimer);
    if (!B.state || ctx.seat === null || B.autoVersion === B.version) return;
    if (!automaticAction(B.state, ctx.seat, B.events, automation(ctx.prefs), B.passRound)) return;
    B.automationTimer = setTimeout(() => {
      const auto = automaticAction(B.state, ctx.seat, B.events, automation(ctx.prefs), B.passRound);
      if (!auto || B.autoVersion === B.version || !ctx.canAct()) return;
      B.autoVersion = B.version;
      const params = { ...auto.params };
      if (params.card) params.card = cardLabel(params.card);
      const text = t(auto.key, params);
      ctx.note(text);
      ctx.toast(text);
      act(auto.action);
      ctx.redraw();
    }, AUTOMATION_MS);
  }

  /** The automation part of the Settings tab (a seat's only: spectators have none). */
  function settings() {
    if (ctx.seat === null) return null;
    const prefs = automation(ctx.prefs);
    const check = (name, label, help) =>
      h(
        "label.check",
        {},
        h("input", { type: "checkbox", id: `pref-${name}`, "data-testid": `pref-${name}`, checked: prefs[name], onchange: (e) => ctx.setPref(name, e.target.checked) }),
        h("span", {}, label),
        h("span.help", {}, help),
      );
    return [h("h3", {}, t("automation")), check("autoPass", t("pref_auto_pass"), t("pref_auto_pass_help")), check("autoTake", t("pref_auto_take"), t("pref_auto_take_help"))];
  }

  // ------------------------------------------------------------------ the side panel

  function renderScores(st) {
    const target = st.options.one_hand ? null : st.options.target;
    const toggle = target
      ? h(
          "div.segmented.score-view",
          { role: "group", "aria-label": t("score_view") },
          ["points", "countdown"].map((view) =>
            h(
              "button",
              {
                type: "button",
                "aria-pressed": B.scoreView === view ? "true" : "false",
                "data-testid": `score-${view}`,
                onclick: () => {
                  B.scoreView = view;
                  localStorage.setItem(SCORE_KEY, view);
                  ctx.redraw();
                },
              },
              t(`score_${view}`),
            ),
          ),
        )
      : null;
    const rows = [];
    for (let seat = 0; seat < st.players; seat++) {
      const shown = scoreShown(st.scores[seat], st.options, B.scoreView);
      const meter = h("span.meter", { class: B.scoreView === "countdown" ? "left" : "" });
      meter.style.width = `${Math.round(100 * (shown.fill || 0))}%`; // CSSOM: allowed under the CSP
      rows.push(
        h("tr", { class: isMine(seat) ? "me" : "" }, h("th", { scope: "row" }, nameOf(seat)), h("td.num", {}, String(shown.n)), shown.fill === null ? null : h("td.bar", {}, meter)),
      );
    }
    return h(
      "section.scores",
      { "aria-label": t("scores") },
      h("div.scores-head", {}, h("h2", {}, t("scores"), target ? h("span.small", {}, " ", t("target_points", { n: target })) : null), toggle),
      h("table", {}, h("tbody", {}, rows)),
    );
  }

  function logLine(e) {
    switch (e.type) {
      case "deal":
        return h("li.log-hand", {}, t("log_deal", { n: e.hand, name: nameOf(e.leader) }));
      case "play":
        return h("li", {}, h("b", {}, nameOf(e.seat)), " ", h("code", {}, e.text), h("span.small", {}, ` (${e.value})`));
      case "take":
      case "pass":
        return h("li", {}, h("b", {}, nameOf(e.seat)), " ", h("code", {}, e.text));
      case "round":
        return h("li.log-round", {}, t("log_round", { name: nameOf(e.leader) }));
      case "hand_end":
        return h("li.log-end", {}, t("log_hand_end", { name: nameOf(e.seat) }), " ", e.points.map((p, s) => `${nameOf(s)} ${p}`).join(", "));
      case "game_end":
        return h("li.log-end", {}, t("log_game_end", { names: e.winners.map(nameOf).join(", ") }));
      default:
        return null;
    }
  }

  // ------------------------------------------------------------------ the board

  return {
    update(st, info) {
      const before = snapshot(root); // where the cards lay, before the new position is drawn
      const first = info.first;
      B.version = info.version;
      B.events = info.events;
      B.state = st;
      B.selection = keepSelection(B.selection, st.hand);
      const opened = summaryUpdate(B, info.events, st.players, first);
      B.summarySeen = opened.summarySeen;
      B.summaryOpen = opened.summaryOpen;
      // A hand's end holds the next hand's first moves until the summary is closed (or a
      // few seconds pass); the next hand's first move then closes it.
      if (opened.summary && !st.outcome) ctx.hold(B.holdMs ?? HOLD_MS);
      else if (B.summaryOpen && !st.outcome && info.fresh.some((e) => e.type !== "deal")) B.summaryOpen = null;
      draw(st);
      if (info.fresh.length) {
        animateEvents(info.fresh, {
          root,
          before,
          mySeat: ctx.seat,
          speed: ctx.prefs.motion,
          makeCard: (card) => cardEl(card, { size: "lg" }),
          log: B.motionLog,
        });
        const types = new Set(info.fresh.map((e) => e.type));
        const sound = SOUNDS.find(([type]) => types.has(type));
        if (sound) ctx.sound(sound[1]);
      }
      scheduleAutomation();
    },
    refresh: renderActions,
    destroy() {
      clearTimeout(B.automationTimer);
      root.classList.remove("odin-board");
      root.replaceChildren();
    },
    turnText(st) {
      const turn = turnMessage(st, ctx.seat);
      if (!turn) return "";
      return t(turn.key, { ...turn.params, name: turn.seat === undefined ? "" : nameOf(turn.seat) });
    },
    say(e) {
      const message = eventMessage(e);
      if (!message) return null;
      const params = { ...message.params, name: nameOf(message.seat) };
      if (e.type === "play") params.cards = e.cards.map(cardLabel).join(", ");
      if (e.type === "take") params.card = cardLabel(e.card);
      return t(message.key, params);
    },
    logLine,
    explain: explainEngine,
    tabs: (st) => [{ key: "scores", label: t("scores"), draw: () => renderScores(st) }],
    meta: (st) => [h("span", {}, t("hand_n", { n: st.hand_number })), h("span", {}, optionsSummaryText(st.options, st.players))],
    settings,
    /** The test and debugging hook's view of the board (docs/ui.md, The test hook). */
    inspect() {
      return {
        selection: [...B.selection],
        passRound: B.passRound,
        motionLog: B.motionLog,
        get holdMs() {
          return B.holdMs;
        },
        set holdMs(ms) {
          B.holdMs = ms;
        },
      };
    },
  };
}

/** The replay page's positions, rebuilt from the record (replay-board.js). */
export function replay(record, ctx) {
  return replayBoard(buildSteps(record), record, ctx);
}
