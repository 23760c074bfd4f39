// @ts-check
/* The Audit panel: a read-only view for the auditor (and the operator) of what the rules
 * decided and who was paid, with the three things an auditor does here: verify the chain now
 * (the `verify_chain` query, run off the controller's loop), download a promotion's PDF record
 * (GET /audit/report.pdf) and, for the auditor only, certify a period with a signature
 * (`audit.certify`, the pad from ./signature.js).
 *
 * Nothing here decides a rule: the controller's sentences are shown as they come. An auditor
 * sees no button for a command their role may not send (console.js `may`).
 */

import {$, el} from "./link.js";
import {askSignature} from "./signature.js";
import {act, grouped, link, may, panel, showAnswer, span, state as consoleState}
  from "./console.js";

const PROMOTIONS = [["wildcard", "Wild Card draw"], ["slots", "Slots PAYOFF"],
  ["roulette", "Roulette Spin-Off"], ["poker", "Heads-Up Poker Showdown"], ["super9", "Super 9"]];
const DRAW_VIEW = "draw:wildcard";

function period() {
  return {
    promotion: $("au-promotion", HTMLSelectElement).value,
    from: $("au-from", HTMLInputElement).value,
    to: $("au-to", HTMLInputElement).value,
  };
}

function renderDownload() {
  const {promotion, from, to} = period();
  const query = new URLSearchParams({promotion});
  if (from) query.set("from", from);
  if (to) query.set("to", to);
  const anchor = $("au-download", HTMLAnchorElement);
  anchor.href = `/audit/report.pdf?${query}`;
  const name = PROMOTIONS.find(([p]) => p === promotion)?.[1] ?? promotion;
  anchor.textContent = `Download the report: ${name}` +
    (from || to ? `, ${from || "the start"} to ${to || "now"}` : "");
}

async function verifyNow() {
  const box = $("au-verify-result");
  const pressed = $("au-verify", HTMLButtonElement);
  pressed.disabled = true;
  showAnswer(box, "pending", "Checking every event, draw and signature…");
  try {
    const answer = await link().call("verify_chain", {});
    if (!answer.ok) showAnswer(box, "error", "Refused", answer.error.message);
    else showAnswer(box, answer.holds ? "ok" : "error", answer.sentence);
  } catch {
    showAnswer(box, "error", "The controller did not answer; try again.");
  } finally {
    pressed.disabled = false;
  }
}

const DAY_MS = 24 * 3600 * 1000;

/** "14 days 3 h left", "5:20:00 left" under a day, "past its deadline". @param {number} ms */
function timeLeft(ms) {
  if (ms <= 0) return "past its deadline";
  if (ms < DAY_MS) return `${span(ms)} left`;
  const days = Math.floor(ms / DAY_MS);
  return `${days} day${days === 1 ? "" : "s"} ${Math.floor((ms % DAY_MS) / 3600000)} h left`;
}

const STATES = {owed: "owed", paid: "paid", lapsed: "lapsed", seated: "seat handed over"};

/** One row of the `prize_register` query in words: who, what, its state and the time left
 * (never an id, a JSON or an epoch). */
function prizeRow(prize) {
  let state = STATES[prize.state] ?? String(prize.state);
  if (prize.paid) state = `paid: ${prize.paid.method}, by ${prize.paid.paid_by}`;
  if (prize.lapsed) state = `lapsed: ${prize.lapsed.consequence}`;
  const left = prize.state === "owed" ? timeLeft(prize.deadline_ms - link().now()) : "";
  const cells = [`${prize.name} (${prize.card})`, prize.what, prize.amount_text ?? "", state,
    left];
  const row = el("tr");
  row.append(...cells.map((text) => el("td", "", String(text))));
  return row;
}

async function loadRegister() {
  const body = $("au-register");
  if (!consoleState.queries.has("prize_register")) {
    body.replaceChildren(el("tr", "", ""));
    $("au-register-note").textContent = "This controller keeps no prize register yet.";
    return;
  }
  try {
    const answer = await link().call("prize_register", {});
    if (!answer.ok) {
      $("au-register-note").textContent = answer.error.message;
      return;
    }
    const prizes = answer.prizes ?? [];
    $("au-register-note").textContent = prizes.length ? "" : "No prize has been awarded yet.";
    body.replaceChildren(...prizes.map(prizeRow));
  } catch {
    $("au-register-note").textContent = "The controller did not answer; try again.";
  }
}

function renderDraws() {
  const d = link().doc(DRAW_VIEW);
  const list = $("au-draws");
  if (!d) {
    list.replaceChildren(el("li", "muted", "No Wild Card draw is configured."));
    return;
  }
  const items = [];
  if (d.pool) {
    items.push(el("li", "round", `Round ${d.round} pool: ${grouped(d.pool.members)} members, ` +
      `${grouped(d.pool.tickets)} tickets, digest ${d.pool.digest.slice(0, 12)}…`));
  }
  for (const r of d.redraws) {
    items.push(el("li", "round", `Round ${r.round}: ${r.name} (${r.masked_card}) — ${r.cause}`));
  }
  if (d.finalist) {
    items.push(el("li", "round final", `Round ${d.round}: ${d.finalist.name} ` +
      `(${d.finalist.masked_card}) — finalist`));
  } else if (d.winner) {
    items.push(el("li", "round", `Round ${d.round}: ${d.winner.name} ` +
      `(${d.winner.masked_card}) — drawn, ticket ${grouped(d.winner.ticket)}`));
  }
  list.replaceChildren(...(items.length ? items : [el("li", "muted", "No pool frozen yet.")]));
}

async function certify() {
  const box = $("au-certify-ack");
  const {promotion, from, to} = period();
  // one paragraph: the controller keeps printable text, no line breaks
  const statement = $("au-statement", HTMLTextAreaElement).value.replace(/\s+/g, " ").trim();
  if (!from || !to) {
    showAnswer(box, "error", "Choose the period", "Give the first and the last day you certify.");
    return;
  }
  const name = PROMOTIONS.find(([p]) => p === promotion)?.[1] ?? promotion;
  const signature = await askSignature({title: "Certify this period",
    prompt: `Sign to certify ${name} from ${from} to ${to}.`});
  if (signature === null) {
    showAnswer(box, "error", "Not certified", "The signature was cancelled.");
    return;
  }
  await act({box, label: "Certify this period", type: "audit.certify",
    payload: {promotion, period_from: from, period_to: to, statement, signature},
    values: `${name}, ${from} to ${to}`,
    done: () => `Certified ${name} from ${from} to ${to}; the report now carries it.`});
}

let started = false;

function start() {
  started = true;
  $("au-promotion").replaceChildren(...PROMOTIONS.map(([value, label]) => {
    const option = el("option", "", label);
    option.setAttribute("value", value);
    return option;
  }));
  for (const id of ["au-promotion", "au-from", "au-to"]) {
    $(id).addEventListener("change", renderDownload);
  }
  $("au-verify").addEventListener("click", verifyNow);
  $("au-register-refresh").addEventListener("click", loadRegister);
  $("au-certify").addEventListener("click", certify);
  renderDownload();
  loadRegister();
}

panel({
  name: "audit",
  views: [DRAW_VIEW],
  render(changed) {
    if (!consoleState.allowed.size && !consoleState.queries.size) return; // no catalogue yet
    if (!started) start();
    $("au-certify-box").hidden = !may("audit.certify");
    if (changed.size === 0 || changed.has(DRAW_VIEW)) renderDraws();
  },
});
