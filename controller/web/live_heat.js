// @ts-check
/* The slot machines' heat on the Tournament panel (ops:feed, docs/slots-feed.md): each seat's
 * live credits and rank while it plays; once the bank's system ends it, the director accepts
 * every machine's final credits with one tap ("Accept the scores"), or corrects one first
 * (Correct: the score and a reason, kept in the log). A machine that stops reporting is
 * flagged as a possible malfunction with the actions rule 27 gives: seat the player in a later
 * heat or refund them (slots.malfunction), or restart the heat (slots.restart_heat).
 */

import {$, el} from "./link.js";
import {act, amount, button, confirm, grouped, link, may, showAnswer} from "./console.js";

/** A machine's row as ops:feed gives it.
 * @typedef {{seat: number, machine: string, name: string, entry: string | null,
 *   credits: number | null}} FeedRow */
/** A bank's latest heat as ops:feed gives it.
 * @typedef {{bank: string, stage: string, stage_title: string, heat: string,
 *   feed_heat: string, status: string, ends_at_ms: number, rows: FeedRow[],
 *   silent: (FeedRow & {since_ms: number})[], last_report_ms: number | null}} FeedBank */

const state = {
  /** @type {Record<string, Record<string, {score: number, reason: string}>>} bank -> entry
   * -> the correction the director typed, sent with the accept */
  corrections: {},
  /** @type {{bank: string, entry: string} | null} the row whose Correct form is open */
  editing: null,
};

/** "19:04": the venue's time of day. @param {number} ms */
function hhmm(ms) {
  return link().timeOfDay(ms).slice(0, 5);
}

/** @param {FeedBank} b */
function key(b) {
  return `${b.bank}|${b.feed_heat}`;
}

/** The Slots panel's live heats: banks playing or waiting for the director's accept. */
export function renderLiveHeat(promotion) {
  const box = $("tn-live-box");
  /** @type {FeedBank[]} */
  const banks = promotion === "slots"
    ? (link().doc("ops:feed")?.banks ?? []).filter((b) => b.status !== "restarted") : [];
  box.hidden = banks.length === 0;
  const holder = $("tn-live");
  const shape = JSON.stringify([banks, state.corrections, state.editing]);
  if (holder.dataset.shape === shape) return;
  holder.dataset.shape = shape;
  holder.replaceChildren(...banks.map(bankBlock));
}

/** @param {FeedBank} b */
function bankBlock(b) {
  const wrap = el("div", "live-heat");
  wrap.dataset.status = b.status;
  const words = {
    live: `${b.heat} playing on ${b.bank} · ends ${hhmm(b.ends_at_ms)}`,
    ended: `${b.heat} ended on ${b.bank}:`,
    accepted: `${b.heat} on ${b.bank}: scores accepted.`,
  };
  const head = el("div", "live-head");
  head.append(el("span", "live-title", words[b.status] ?? b.heat));
  if (b.status === "ended" && may("slots.accept_feed")) {
    head.append(button("Accept the scores", "big accept", () => accept(b)));
  }
  wrap.append(head);
  for (const s of b.silent) wrap.append(silentAlert(b, s));
  const table = el("table", "rows standings live-rows");
  const top = el("tr");
  for (const [text, cls] of [["Seat · machine", "num"], ["Player", ""], ["Credits", "num"],
    ["Rank", "num"], ["", ""]]) top.append(el("th", cls, text));
  const thead = el("thead");
  thead.append(top);
  const body = el("tbody");
  body.append(...ranked(b.rows).flatMap(([r, rank]) => rowsOf(b, r, rank)));
  table.append(thead, body);
  wrap.append(table);
  return wrap;
}

/** Rows by credits (ties share a rank), those without a reading last, then by seat.
 * @param {FeedRow[]} rows @returns {[FeedRow, number | null][]} */
function ranked(rows) {
  const credits = rows.map((r) => r.credits).filter((c) => c !== null);
  /** @type {[FeedRow, number | null][]} */
  const out = rows.map((r) => [r, r.credits === null ? null
    : 1 + credits.filter((c) => c > (r.credits ?? 0)).length]);
  return out.sort(([a, ra], [b, rb]) => (ra ?? 1e9) - (rb ?? 1e9) || a.seat - b.seat);
}

/** The machine's row, and its Correct form under it when open.
 * @param {FeedBank} b @param {FeedRow} r @param {number | null} rank @returns {HTMLElement[]} */
function rowsOf(b, r, rank) {
  const tr = el("tr");
  const silent = b.silent.some((s) => s.machine === r.machine);
  if (silent) tr.classList.add("silent");
  const fix = r.entry ? state.corrections[key(b)]?.[r.entry] : undefined;
  const credits = el("td", "num", r.credits === null ? "–" : grouped(r.credits));
  if (fix) {
    credits.textContent = grouped(fix.score);
    credits.append(el("div", "live-fix", `was ${grouped(r.credits ?? 0)}: ${fix.reason}`));
  }
  const action = el("td", "seat-action");
  if (b.status === "ended" && r.entry && may("slots.accept_feed")) {
    action.append(button(fix ? "Change" : "Correct", "big",
      () => { state.editing = {bank: key(b), entry: r.entry ?? ""}; rerender(); }));
  }
  tr.append(el("td", "num", `${r.seat} · ${r.machine}`), el("td", "", r.name), credits,
    el("td", "num", rank === null ? "" : String(rank)), action);
  if (state.editing?.bank !== key(b) || state.editing.entry !== r.entry) return [tr];
  const form = el("tr", "live-correct");
  const cell = el("td");
  cell.colSpan = 5;
  const score = /** @type {HTMLInputElement} */ (el("input", "text"));
  score.id = "tn-live-score";
  score.inputMode = "numeric";
  score.setAttribute("aria-label", `Score for ${r.name}`);
  score.value = fix ? String(fix.score) : "";
  const reason = /** @type {HTMLInputElement} */ (el("input", "text"));
  reason.id = "tn-live-reason";
  reason.maxLength = 80;
  reason.placeholder = "Reason (kept in the log)";
  reason.setAttribute("aria-label", `Reason for correcting ${r.name}`);
  reason.value = fix?.reason ?? "";
  const keep = button("Keep this correction", "big", () => {
    const value = amount(score.value);
    const why = reason.value.trim();
    if (typeof value !== "number" || !why) {
      showAnswer($("tn-live-ack"), "error", "Not kept", typeof value !== "number"
        ? "Type the score as a whole number." : "Give a reason; it is kept in the log.");
      return;
    }
    state.corrections[key(b)] = {...state.corrections[key(b)], [r.entry ?? ""]: {
      score: value, reason: why}};
    state.editing = null;
    rerender();
  });
  const cancel = button("Cancel", "big", () => { state.editing = null; rerender(); });
  cell.append(score, reason, keep, cancel);
  form.append(cell);
  return [tr, form];
}

function rerender() {
  $("tn-live").dataset.shape = "";
  renderLiveHeat("slots");
}

/** @param {FeedBank} b @param {FeedRow & {since_ms: number}} s */
function silentAlert(b, s) {
  const alert = el("div", "live-alert");
  alert.setAttribute("role", "alert");
  alert.append(el("div", "live-alert-text", `Machine ${s.machine} (${s.name}) has not reported ` +
    `since ${hhmm(s.since_ms)}: possible malfunction (rule 27)`));
  const actions = el("div", "live-alert-actions");
  if (s.entry && may("slots.malfunction")) {
    actions.append(button("Seat in a later heat / refund…", "big danger", () => moveOrRefund(s)));
  }
  if (may("slots.restart_heat")) {
    actions.append(button(`Restart ${b.heat}…`, "big danger", () => restart(b, s)));
  }
  alert.append(actions);
  return alert;
}

/** @param {FeedRow} s */
async function moveOrRefund(s) {
  if (!await confirm(`Move ${s.name} off machine ${s.machine}?`,
    "To the first free seat of a later heat; refunded if no later seat is free (rule 27).",
    "Yes, move or refund")) return;
  await act({box: $("tn-live-ack"), label: "Machine malfunction", type: "slots.malfunction",
    payload: {entry: s.entry}, values: `${s.name} · machine ${s.machine}`,
    done: () => `${s.name} is moved to a later heat, or refunded.`});
}

/** @param {FeedBank} b @param {FeedRow} s */
async function restart(b, s) {
  if (!await confirm(`Restart ${b.heat}?`, "Every score of the heat is voided and the heat " +
    "is played again (rule 27).", `Yes, restart ${b.heat}`)) return;
  await act({box: $("tn-live-ack"), label: "Restart heat", type: "slots.restart_heat",
    payload: {stage: b.stage, heat: b.heat,
      reason: `machine ${s.machine} stopped reporting`},
    values: `${b.heat} · machine ${s.machine} stopped reporting`,
    done: () => `${b.heat} is restarted.`});
}

/** @param {FeedBank} b */
async function accept(b) {
  const fixes = state.corrections[key(b)] ?? {};
  const corrections = Object.entries(fixes).map(([entry, c]) => ({entry, ...c}));
  const values = `${b.heat} · ${b.bank}` + (corrections.length
    ? ` · ${corrections.length} corrected` : "");
  const ack = await act({box: $("tn-live-ack"), label: "Accept the scores",
    type: "slots.accept_feed", payload: {stage: b.stage, heat: b.heat, corrections}, values,
    done: () => `${b.heat}'s scores are recorded.`});
  if (ack?.ok) {
    delete state.corrections[key(b)];
    state.editing = null;
    rerender();
  }
}
