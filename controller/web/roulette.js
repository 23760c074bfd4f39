// @ts-check
/* The Roulette panel: a heat picked by name, where it is in its spins, the betting countdown
 * the floor shows (the view's absolute deadline on the controller's clock), and only the step
 * the heat is at: open the betting, a no spin (+30 s, rule 25) or the spin played (players who
 * missed it named, rule 9), then each player's chips left after the last spin (rule 7) and the
 * heat's score sheet, one signature per player (rule 18). A dispute is recorded within the spin
 * in question, with how it was decided and the player's signature (rule 17).
 *
 * Nothing here decides a rule: the controller refuses what the rules do not allow, in words.
 */

import {$, el} from "./link.js";
import {act, confirm, grouped, span, amount, button, may, panel, link} from "./console.js";
import {scoreSheet, unsigned} from "./score_sheet.js";
import {askSignature} from "./signature.js";
import {renderWheel, wireHeld} from "./wheel.js";
const SPINS = "spins:roulette";
const OPS = "ops:roulette";
const BOARD = "leaderboard:roulette";
const STANDINGS = 5;

const state = {heat: null};
const box = () => $("rl-ack");
const keyOf = (h) => `${h.stage}|${h.heat}`;

/** The heats with a player still to score, in the order they were dealt; each with its
 * seats, its spins so far (ops) and its betting window (spins, as the floor shows it). */
function heats() {
  const ops = link().doc(OPS);
  const betting = new Map((link().doc(SPINS)?.heats ?? []).map((h) => [keyOf(h), h]));
  const progress = new Map((ops?.heats ?? []).map((h) => [keyOf(h), h]));
  const spins = ops?.spins_per_heat ?? 0;
  const found = new Map();
  for (const e of ops?.entries ?? []) {
    if (e.heat === null || e.status === "refunded" || e.status === "to_final") continue;
    const key = keyOf(e);
    if (!found.has(key)) {
      found.set(key, {key, stage: e.stage, heat: e.heat, seats: [],
        spins: {done: 0, open: null, ...progress.get(key), spins},
        window: betting.get(key) ?? null});
    }
    found.get(key).seats.push(e);
  }
  const signs = ops?.signatures ?? {};
  return [...found.values()].filter((h) => h.seats.some((e) => (e.status === "active" &&
    e.score === null) || (signs[e.stage] && unsigned(e))));
}

function render() {
  const all = heats();
  $("rl-empty").hidden = all.length > 0;
  $("rl-body").hidden = all.length === 0;
  if (!all.some((h) => h.key === state.heat)) state.heat = all[0]?.key ?? null;
  renderChips(all);
  const h = all.find((x) => x.key === state.heat);
  renderStandings();
  renderWheel("rl", "roulette");
  if (!h) return;
  const now = link().now();
  const {done, open, spins} = h.spins;
  const closes = h.window?.betting_closes_at ?? null;
  const left = closes === null ? 0 : closes - now;
  const stage = h.stage === "final" ? "Final" : "Qualifying";
  const closed = open !== null && h.window?.bets_closed === true;  // the wheel said so
  $("rl-phase").textContent = closed
    ? `${stage} · ${h.heat}: spin ${open} of ${spins}: no more bets.`
    : open !== null
    ? `${stage} · ${h.heat}: spin ${open} of ${spins} is taking bets` +
      (h.window?.no_spin ? " (no spin: 30 more seconds)." : ".")
    : done < spins ? `${stage} · ${h.heat}: ${done} of ${spins} spins played. ` +
      `Open the betting for spin ${done + 1} when the table is ready.`
      : h.seats.some((e) => e.status === "active" && e.score === null)
        ? `${stage} · ${h.heat}: all ${spins} spins played. Enter each player's chips left.`
        : `${stage} · ${h.heat}: every score is in. Each player signs the score sheet.`;
  $("rl-countdown").hidden = open === null;
  $("rl-countdown").dataset.kind = left <= 0 ? "up" : left <= 30000 ? "short" : "running";
  $("rl-countdown-time").textContent = span(left);
  $("rl-countdown-label").textContent = closed ? "No more bets"
    : left > 0 ? "to place bets" : "Bets are closed";
  const mc = may("roulette.spin");
  $("rl-open-box").hidden = !(mc && open === null && done < spins);
  $("rl-open").textContent = `Open betting for spin ${done + 1}`;
  $("rl-spin-box").hidden = !mc || open === null;
  $("rl-spin").textContent = `Spin ${open ?? ""} played…`;
  renderSeats(h, mc && open !== null, mc && done >= spins);
  renderSheet(h, done >= spins);
  const waiting = h.seats.some((e) => e.status === "active" && e.score === null);
  renderDisputes(h, mc && (open !== null || (done > 0 && (done < spins || waiting))));
}

/** The heat's score sheet once its spins are played: who has signed, who not (rule 18). */
function renderSheet(h, over) {
  const signs = link().doc(OPS)?.signatures?.[h.stage] ?? false;
  const scored = h.seats.filter((e) => e.status === "active" && e.score !== null);
  const shape = `${h.key}|${over}|${scored.map((e) => `${e.entry}:${e.score}:${e.signed}`)}`;
  const holder = $("rl-sheet");
  $("rl-sheet-box").hidden = !(signs && over && scored.length);
  if (holder.dataset.shape === shape) return;
  holder.dataset.shape = shape;
  holder.replaceChildren(scoreSheet("roulette", h.seats, box()));
}

/** The heat's disputes so far, and the form that records one about the spin in play. */
function renderDisputes(h, open) {
  const list = h.spins.disputes ?? [];
  $("rl-disputes").replaceChildren(...(list.length ? list.map((d) => el("li", "dispute",
    `Spin ${d.spin} · ${d.name}: ${d.what} · ${d.decision} by ${d.decided_by}`))
    : [el("li", "muted", "None recorded in this heat.")]));
  $("rl-dispute-box").hidden = !open;
  const who = $("rl-dispute-who", HTMLSelectElement);
  const shape = `${h.key}|${h.seats.map((e) => e.entry)}`;
  if (who.dataset.shape === shape) return;
  who.dataset.shape = shape;
  who.replaceChildren(...h.seats.slice().sort((a, b) => a.seat - b.seat).map((e) => {
    const option = el("option", null, `Seat ${e.seat} · ${e.name}`);
    option.value = e.entry;
    return option;
  }));
}

/** Rule 17: the dispute, how it was decided, and the signature of the player who raised it.
 * @param {"upheld" | "rejected"} decision */
async function recordDispute(decision) {
  const h = picked();
  if (!h) return;
  const e = h.seats.find((s) => s.entry === $("rl-dispute-who", HTMLSelectElement).value);
  const what = $("rl-dispute-what", HTMLInputElement).value.trim();
  if (!e) return;
  const spin = h.spins.open ?? h.spins.done;
  const signature = await askSignature({title: `Dispute: ${h.heat}, spin ${spin}`,
    prompt: `${e.name}: “${what || "no description"}”, ${decision}. Sign to confirm you ` +
      "raised it and were told the decision (rule 17)."});
  if (signature === null) return;
  const ack = await act({box: box(), label: "Record dispute", type: "roulette.dispute",
    payload: {heat: h.heat, spin, entry: e.entry, what, decision, signature},
    values: `${h.heat} · spin ${spin} · ${e.name} · ${decision}`,
    done: () => `The dispute of ${e.name} about spin ${spin} is recorded (${decision}).`});
  if (ack?.ok) $("rl-dispute-what", HTMLInputElement).value = "";
}

function renderChips(all) {
  const nav = $("rl-heats");
  const labels = all.map((h) => `${h.stage === "final" ? "Final " : ""}${h.heat}`);
  if (nav.dataset.labels === labels.join("|") &&
      nav.dataset.picked === state.heat) return; // keep the chips under the finger
  nav.dataset.labels = labels.join("|");
  nav.dataset.picked = state.heat ?? "";
  nav.replaceChildren(...all.map((h, i) => {
    const chip = button(labels[i], "chip", () => {
      state.heat = h.key;
      render();
    });
    chip.setAttribute("aria-pressed", String(h.key === state.heat));
    return chip;
  }));
}

/** The seats with their scores; while a spin takes bets, a "missed" box per player; after
 * the last spin, a chips-left field per player still to score. */
function renderSeats(h, betting, over) {
  const shape = `${h.key}|${betting}|${over}|` +
    h.seats.map((e) => `${e.entry}:${e.status}:${e.score}`).join(",");
  const body = $("rl-seats");
  if (body.dataset.shape === shape) return; // typed chips and ticked boxes stay
  body.dataset.shape = shape;
  body.replaceChildren(...h.seats.slice().sort((a, b) => a.seat - b.seat).map((e) => {
    const tr = el("tr");
    const score = e.score !== null ? grouped(e.score)
      : e.status === "active" ? "—" : humanStatus(e.status);
    tr.append(el("td", "num", String(e.seat ?? "")), el("td", "", e.name),
      el("td", "num", score));
    const action = el("td", "seat-action");
    if (betting && e.status === "active") {
      const label = el("label", "check");
      const box = el("input");
      box.type = "checkbox";
      box.dataset.entry = e.entry;
      box.dataset.name = e.name;
      label.append(box, document.createTextNode("missed this spin"));
      action.append(label);
    } else if (over && e.status === "active" && e.score === null) {
      const input = el("input", "text chips");
      input.type = "text";
      input.inputMode = "numeric";
      input.autocomplete = "off";
      input.setAttribute("aria-label", `Chips left for ${e.name}`);
      input.placeholder = "chips left";
      action.append(input, button("Record", "big", () => recordScore(e, input)));
    }
    tr.append(action);
    return tr;
  }));
}

function humanStatus(status) {
  return status.replace(/_/g, " ");
}

function renderStandings() {
  const rows = (link().doc(BOARD)?.rows ?? []).slice(0, STANDINGS);
  $("rl-standings").replaceChildren(...(rows.length ? rows.map((r) => {
    const tr = el("tr");
    tr.append(el("td", "num", String(r.position)), el("td", "", r.name),
      el("td", "num", grouped(r.score)));
    return tr;
  }) : [emptyRow()]));
}

function emptyRow() {
  const tr = el("tr");
  const td = el("td", "muted", "No scores yet.");
  td.colSpan = 3;
  tr.append(td);
  return tr;
}

const picked = () => heats().find((h) => h.key === state.heat) ?? null;

function openBetting() {
  const h = picked();
  if (!h) return;
  const spin = h.spins.done + 1;
  act({box: box(), label: "Open betting", type: "roulette.open_betting",
    payload: {stage: h.stage, heat: h.heat}, values: `${h.heat} · spin ${spin}`,
    done: () => `${h.heat}: spin ${spin} is taking bets; the countdown is on the floor.`});
}

async function noSpin() {
  const h = picked();
  if (!h) return;
  const ok = await confirm("No spin? Every player gets 30 more seconds to change bets.",
    `${h.heat}, spin ${h.spins.open}: the betting countdown goes up by 30 seconds (rule 25).`,
    "Yes, no spin");
  if (!ok) return;
  act({box: box(), label: "No spin", type: "roulette.no_spin",
    payload: {stage: h.stage, heat: h.heat}, values: `${h.heat} · spin ${h.spins.open}`,
    done: () => "No spin: 30 more seconds to change bets, on the floor now."});
}

async function spun() {
  const h = picked();
  if (!h) return;
  const ticked = [...$("rl-seats").querySelectorAll("input")].filter((b) => b.checked);
  const names = ticked.map((b) => b.dataset.name);
  // where the ball landed, typed when the wheel is not read; the controller checks it
  const typed = $("rl-number", HTMLInputElement).value.trim();
  const number = typed === "" ? null : /^\d+$/.test(typed) ? Number(typed) : typed;
  const landed = number === null ? "" : ` on ${typed}`;
  const ok = await confirm(`Spin ${h.spins.open} of ${h.heat} played${landed}?`,
    names.length ? `Missed it, disqualified for the heat (rule 9): ${names.join(", ")}.`
      : "Every player played it.", "Yes, it is played");
  if (!ok) return;
  const payload = {stage: h.stage, heat: h.heat, missed: ticked.map((b) => b.dataset.entry),
    ...(number === null ? {} : {number})};
  const ack = await act({box: box(), label: "Spin played", type: "roulette.spin", payload,
    values: `${h.heat} · spin ${h.spins.open}${landed}` +
      `${names.length ? ` · missed: ${names.join(", ")}` : ""}`,
    done: () => `${h.heat}: spin ${h.spins.open} is played${landed}.`});
  if (ack?.ok) $("rl-number", HTMLInputElement).value = "";
}

function recordScore(e, input) {
  const score = amount(input.value);
  const shown = typeof score === "number" ? grouped(score) : `“${score}”`;
  act({box: box(), label: "Record score", type: "roulette.record_score",
    payload: {entry: e.entry, score}, values: `${e.name} · ${shown}`,
    done: () => `${e.name}: ${shown} recorded.`});
}

wireHeld("rl", box);
$("rl-open").addEventListener("click", openBetting);
$("rl-no-spin").addEventListener("click", noSpin);
$("rl-spin").addEventListener("click", spun);
$("rl-dispute-upheld").addEventListener("click", () => recordDispute("upheld"));
$("rl-dispute-rejected").addEventListener("click", () => recordDispute("rejected"));
panel({name: "roulette", render, ticks: true});
