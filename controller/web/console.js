// @ts-check
/* What the MC console's panels share: one press at a time with its answer shown where the
 * finger was and scrolled into view, in words (answer_words.js), with the step a refusal names
 * as missing offered beside it; an answer cleared when the state it answered moves on or at
 * the page's next press; a confirmation step for what cannot be undone; recent actions in the
 * same words; and an honest connection pill (a heartbeat says "Offline" within 3 s).
 *
 * Nothing here decides a rule: the controller's sentences are shown as they come.
 */

import {$, el, Link, loadJson, saveJson, setConnection} from "./link.js";
import {grouped, payloadWords, plain, warningsOf} from "./answer_words.js";

export {span} from "./words.js"; // one way every panel says a time left

export {grouped};

/** @typedef {import("./link.js").Ack} Ack */

const LOG_STORE = "showrunner.tablet.log";
const LOG_SIZE = 12;
const HEARTBEAT_MS = 1000;
const HEARTBEAT_TIMEOUT_MS = 1500;
const SETTLE_MS = 250;
const KEEP_IN_VIEW_MS = 3000;

/** @typedef {{at: string, label: string, values: string, ok: boolean, text: string}} LogEntry */
/** A button beside an answer: the next step it offers. @typedef {{text: string,
 * press: () => void}} Offer */
/** What an answer is about: a view, and the key of its state the answer holds for (a round,
 * a draw); when the key moves on, the answer is cleared.
 * @typedef {{view: string, key: (doc: any, now: number) => string}} About */
/** A refusal's missing step (docs/protocol.md, `error.next`).
 * @typedef {{type: string, payload: object, button: string,
 *   confirm: {question: string, detail: string, yes: string}, done: string}} Step */
/** A panel of the console: rendered on every view push, and each second when it `ticks`.
 * @typedef {{name: string, render: (changed: Set<string>) => void, ticks?: boolean,
 *   views?: string[]}} Panel */

/** @type {Link} the console's link to /control, given by start() */
let theLink;

export const state = {
  /** @type {LogEntry[]} */
  log: loadJson(LOG_STORE, []),
  /** @type {Panel[]} */
  panels: [],
  offline: false,
  /** @type {Record<string, import("./schema_form.js").Schema>} the scenes, by name */
  scenes: {},
  /** @type {Set<string>} */
  allowed: new Set(),
  /** @type {Set<string>} the queries the controller answers (the catalogue's) */
  queries: new Set(),
  /** this person's role, from the catalogue */
  role: "",
};

/** Whether this person's role may send `type` (the catalogue's commands for the role): a
 * panel offers no button the controller would refuse for the role.
 * @param {string} type */
export function may(type) {
  return state.allowed.has(type);
}

/** "60,000" / "60 000" / "60000" -> 60000, as the floor writes amounts; anything else stays
 * text, sent as typed for the controller to say what is wrong.
 * @param {string} text */
export function amount(text) {
  const typed = text.trim();
  if (/^\d{1,3}([ ,\u00a0\u202f']\d{3})+$/.test(typed)) return Number(typed.replace(/\D/g, ""));
  return /^\d+$/.test(typed) ? Number(typed) : typed;
}

/** "1 ticket", "2 tickets", "1 200 tickets". @param {number} n @param {string} word */
export function count(n, word) {
  return `${grouped(n)} ${word}${n === 1 ? "" : "s"}`;
}

/** The venue's time of day of an epoch, as the console's clock shows it. @param {number} ms */
function timeOfDay(ms) {
  return theLink ? theLink.timeOfDay(ms) : new Date(ms).toLocaleTimeString("en-GB");
}

/** The words of what was sent (`payload`), for the recent list and All commands' answers.
 * @param {Record<string, unknown>} payload */
export function sentWords(payload) {
  return payloadWords(payload, timeOfDay);
}

/** The answer last shown, kept in view for a moment after: the views its command changed
 * arrive with it or just after, and a panel that grows above the answer (Super 9's next game
 * once a game is won) pushed it below the fold. @type {{box: HTMLElement | null,
 * until: number}} */
let shown = {box: null, until: 0};

/**
 * Show an answer in `box`, in words (no card number but its last four digits, no epoch), with
 * the event warnings and the buttons `offers` beside it, and scroll it into view.
 * @param {HTMLElement} box @param {string} kind @param {string} headline
 * @param {string} [detail] @param {{warnings?: string[], offers?: Offer[]}} [more]
 */
export function showAnswer(box, kind, headline, detail = "", {warnings = [], offers = []} = {}) {
  box.hidden = false;
  box.dataset.kind = kind;
  const lines = [el("div", "ack-headline", headline)];
  if (detail) lines.push(el("div", "ack-detail", plain(detail, timeOfDay)));
  for (const warning of warnings) lines.push(el("div", "ack-warning", plain(warning, timeOfDay)));
  if (offers.length) {
    const row = el("div", "row ack-offers");
    row.append(...offers.map((offer) => button(offer.text, "big", offer.press)));
    lines.push(row);
  }
  box.replaceChildren(...lines);
  box.scrollIntoView({block: "nearest"});
  shown = {box, until: Date.now() + KEEP_IN_VIEW_MS};
}

/** Run after every panel has rendered (the last panel, see start): the answer just shown is
 * scrolled back into view if that render moved it out. */
function keepAnswerInView() {
  const {box, until} = shown;
  const area = box?.closest(".pages");  // the panels' scroll area (a sheet's answer is fixed)
  if (!box || !area || Date.now() > until || box.hidden || box.offsetParent === null) return;
  const {top, bottom} = box.getBoundingClientRect();
  const shows = area.getBoundingClientRect();
  if (top < shows.top - 1 || bottom > Math.min(shows.bottom, window.innerHeight) + 1) {
    box.scrollIntoView({block: "nearest"});
  }
}

/** @type {Map<HTMLElement, About & {after: number, held: string | undefined}>} */
const answered = new Map();

/** Clear each answer whose state moved on: its key is taken once the view has the answer's
 * events (revision >= the ack's seq; a refusal's at once) and compared from then on. */
function settle() {
  for (const [box, about] of answered) {
    const view = theLink.views.get(about.view);
    if (view === undefined || view.revision < about.after) continue;
    const key = about.key(view.doc, theLink.now());
    if (about.held === undefined) {
      about.held = key;
    } else if (key !== about.held) {
      box.hidden = true;
      answered.delete(box);
    }
  }
}

/** The page's next press clears its older answers (the new one goes in `box`).
 * @param {HTMLElement} box */
function clearOthers(box) {
  for (const other of box.closest(".page")?.querySelectorAll(".ack") ?? []) {
    if (other === box || !(other instanceof HTMLElement)) continue;
    other.hidden = true;
    answered.delete(other);
  }
}

/** The refusal's missing step as a button, when this person's role may send it: a press
 * asks first, in the step's words, then sends it and answers in the same box.
 * @param {import("./link.js").Ack} ack @param {HTMLElement} box @param {About} [about]
 * @returns {Offer[]} */
function nextStep(ack, box, about) {
  const step = /** @type {Step | undefined} */ (ack.ok ? undefined : ack.error.next);
  if (step === undefined || !may(step.type)) return [];
  return [{text: step.button, press: async () => {
    const {question, detail, yes} = step.confirm;
    if (!await confirm(question, detail, yes)) return;
    act({box, label: step.button.replace(/…$/, ""), type: step.type, payload: step.payload,
      values: sentWords(/** @type {Record<string, unknown>} */ (step.payload)),
      done: () => step.done, about});
  }}];
}

/**
 * Send one command; its answer goes in `box` (beside the button pressed) and in the recent
 * list. `values` are the words of what was sent; `done(ack)` the success sentence (else the
 * controller's `said`, else "Done."); `offers(ack)` buttons to show beside the answer;
 * `about` what the answer holds for (see About). Resolves to the ack, or null when another
 * press is still unanswered.
 * @param {{box: HTMLElement, label: string, type: string, payload: object, values?: string,
 *   done?: (ack: Ack) => string, offers?: (ack: Ack) => Offer[], about?: About}} press
 * @returns {Promise<Ack | null>}
 */
export async function act({box, label, type, payload, values = "", done, offers, about}) {
  const answer = theLink.press(type, payload, () => showAnswer(box, "pending",
    "Not confirmed yet", "Resending the same press when the controller answers…"));
  if (answer === null) {
    showAnswer(box, "pending", "Still waiting for the previous press.");
    return null;
  }
  clearOthers(box);
  answered.delete(box);
  document.body.classList.add("busy");
  showAnswer(box, "pending", theLink.connected ? "Sending…" : "Waiting for the controller…");
  const ack = await answer;
  document.body.classList.remove("busy");
  const text = ack.ok ? (done ? done(ack) : ack.said ?? "Done.") : ack.error.message;
  showAnswer(box, ack.ok ? "ok" : "error", ack.ok ? "Done" : "Refused", text, {
    warnings: ack.ok ? warningsOf(ack) : [],
    offers: [...nextStep(ack, box, about), ...(offers ? offers(ack) : [])],
  });
  if (about) answered.set(box, {...about, after: ack.ok ? ack.seq ?? 0 : 0, held: undefined});
  remember({at: timeOfDay(theLink.now()), label, values: plain(values, timeOfDay), ok: ack.ok,
    text: plain(text, timeOfDay)});
  return ack;
}

/** The confirmation step: resolves true only on the explicit "Yes" press.
 * @param {string} question @param {string} detail @param {string} yes */
export function confirm(question, detail, yes) {
  return new Promise((resolve) => {
    const sheet = $("confirm");
    $("confirm-question").textContent = question;
    $("confirm-detail").textContent = detail;
    $("confirm-yes").textContent = yes;
    sheet.hidden = false;
    $("confirm-no").focus();
    const close = (result) => {
      sheet.hidden = true;
      $("confirm-yes").onclick = null;
      $("confirm-no").onclick = null;
      resolve(result);
    };
    $("confirm-yes").onclick = () => close(true);
    $("confirm-no").onclick = () => close(false);
  });
}

/** @param {LogEntry} entry */
export function remember(entry) {
  state.log = [entry, ...state.log].slice(0, LOG_SIZE);
  saveJson(LOG_STORE, state.log);
  renderLog();
}

function renderLog() {
  const list = $("log");
  if (state.log.length === 0) {
    list.replaceChildren(el("li", "log-empty", "Nothing sent yet."));
    return;
  }
  list.replaceChildren(...state.log.map((entry) => {
    const item = el("li", entry.ok ? "log-item ok" : "log-item error");
    const head = el("div", "log-head");
    head.append(el("span", "log-label", entry.label), el("span", "log-time", entry.at));
    item.append(head);
    if (entry.values) item.append(el("div", "log-values", entry.values));
    item.append(el("div", "log-text", entry.ok ? `Done · ${entry.text}` : entry.text));
    return item;
  }));
}

/** A labelled button (>= 48 px by the stylesheet) that runs `onPress`.
 * @param {string} text @param {string} className @param {() => void} onPress */
export function button(text, className, onPress) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onPress);
  return node;
}

/** Every second: a clock round trip; no answer within 1.5 s (or no socket) is "Offline". */
function heartbeat() {
  if (!theLink.connected) {
    setOffline(true);
    return;
  }
  theLink.socket.timeout(HEARTBEAT_TIMEOUT_MS).emitWithAck("clock", {client_ms: Date.now()})
    .then(() => setOffline(false), () => setOffline(true));
}

/** @param {boolean} offline */
function setOffline(offline) {
  const conn = $("conn");
  if (conn.dataset.state === "refused") return;
  if (offline) {
    setConnection("offline", "Offline");
  } else if (state.offline || conn.dataset.state !== "online") {
    setConnection("online", "Online");
  }
  state.offline = offline;
}

/** The console's link to /control (given by start). */
export function link() {
  return theLink;
}

/** The scenes a takeover may show, each with its JSON Schema (from the catalogue). */
export function scenes() {
  return state.scenes;
}

/** @param {Panel} spec */
export function panel(spec) {
  state.panels.push(spec);
}

/** @param {Link} linked */
export function start(linked) {
  theLink = linked;
  renderLog();
  panel({name: "answer-in-view", render: keepAnswerInView, ticks: true});  // after the others
  // another tab chosen: its panel opens at its top, not at an answer given before
  $("tabs").addEventListener("click", () => { shown = {box: null, until: 0}; });
  setInterval(heartbeat, HEARTBEAT_MS);
  setInterval(settle, SETTLE_MS);
}
