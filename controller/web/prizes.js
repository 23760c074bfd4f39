// @ts-check
/* The Prizes panel: the prize register (the `prize_register` query, operators and auditors
 * only). What is owed comes first, soonest deadline first, with the time left (red under
 * 48 hours); a Pay dialog takes how it was paid and the identity document seen (its type and
 * last 4 characters only), then the winner signs on the pad (signature.js); paid, lapsed and
 * handed-over prizes are listed below with how each ended and the signature's image.
 *
 * The register is asked again after a payment, every 30 s, when the tab is opened and when
 * the cues change (a prize awarded, paid or lapsed changes its reminders). The controller
 * decides every rule: a refusal is shown in its words. No id, JSON or epoch is shown.
 */

import {$, el} from "./link.js";
import {act, button, link, may, panel, showAnswer} from "./console.js";
import {askSignature} from "./signature.js";
import {venueTime} from "./venue_day.js";
import {timeLeft} from "./words.js";

const REFRESH_MS = 30_000;
const HOUR_MS = 3_600_000;
const URGENT_MS = 48 * HOUR_MS;
const METHODS = {cash: "cash", eft: "EFT", cheque: "cheque", voucher: "voucher"};

/** @typedef {{method: string, paid_by: string, id_type: string, id_last4: string,
 *   signature_sha256: string, at_ms: number}} Payment */
/** @typedef {{prize: string, promotion: string, name: string, card: string, what: string,
 *   rule: string, kind: string, seat: string | null, cents: number, amount_text: string,
 *   decided_ms: number, deadline_ms: number, state: string, paid: Payment | null,
 *   lapsed: {at_ms: number, consequence: string} | null}} Row */

const state = {
  /** @type {Row[]} */
  rows: [],
  /** @type {Row | null} the prize the Pay dialog is for */
  paying: null,
  asked: false,
  busy: false,
};

/** "2 Dec 14:05" at the venue. @param {number} ms */
function when(ms) {
  return venueTime(ms, link().doc("venue")?.timezone);
}

async function refresh() {
  if (state.busy || !link().connected) return;
  state.busy = true;
  try {
    const answer = await link().call("prize_register", {});
    if (answer.ok) {
      state.rows = answer.prizes;
      render();
    } else {
      showAnswer($("pz-ack"), "error", "Refused", answer.error.message);
    }
  } catch {
    // no answer in time: the next refresh asks again
  } finally {
    state.busy = false;
  }
}

function render() {
  const owed = state.rows.filter((r) => r.state === "owed");
  const done = state.rows.filter((r) => r.state !== "owed");
  $("pz-empty").hidden = state.rows.length > 0;
  $("pz-owed-box").hidden = owed.length === 0;
  $("pz-done-box").hidden = done.length === 0;
  $("pz-owed").replaceChildren(...owed.map(owedRow));
  $("pz-done").replaceChildren(...done.map(doneRow));
  tickLeft();
}

/** @param {Row} r */
function winner(r) {
  const cell = el("td", "pz-winner");
  cell.append(el("div", "pz-name", r.name));
  if (r.card) cell.append(el("div", "muted", r.card));
  return cell;
}

/** @param {Row} r */
function prizeCell(r) {
  const cell = el("td", "pz-what");
  cell.append(el("div", "", r.what), el("div", "muted", `${r.rule} · decided ${when(r.decided_ms)}`));
  return cell;
}

/** The Amount cell: money only; a seat (said in the Prize cell) has none. @param {Row} r */
function amountCell(r) {
  if (r.kind === "cash") return el("td", "pz-amount", r.amount_text);
  const cell = el("td", "pz-amount muted", "—");
  cell.title = "No money: the prize is a seat";
  return cell;
}

/** @param {Row} r */
function owedRow(r) {
  const tr = el("tr", "pz-row");
  tr.dataset.deadline = String(r.deadline_ms);
  const left = el("td", "pz-left");
  left.append(el("div", "pz-left-text"), el("div", "muted", `by ${when(r.deadline_ms)}`));
  const actions = el("td", "pz-actions");
  if (may("prizes.pay")) actions.append(button("Pay…", "big", () => openPay(r)));
  tr.append(winner(r), prizeCell(r), amountCell(r), left, actions);
  return tr;
}

/** @param {Row} r */
function doneRow(r) {
  const tr = el("tr", `pz-row pz-${r.state}`);
  const how = el("td", "pz-how");
  if (r.paid) {
    const p = r.paid;
    how.append(el("div", "pz-state", `Paid ${when(p.at_ms)} by ${p.paid_by} ` +
      `(${METHODS[p.method] ?? p.method})`),
    el("div", "muted", `${p.id_type} ending ${p.id_last4}`));
    const image = /** @type {HTMLImageElement} */ (el("img", "pz-signature"));
    image.src = `/signatures/${p.signature_sha256}.png`;
    image.alt = `Signature of ${r.name}`;
    how.append(image);
  } else if (r.lapsed) {
    how.append(el("div", "pz-state", `Lapsed ${when(r.lapsed.at_ms)}`),
      el("div", "muted", r.lapsed.consequence));
  } else {
    how.append(el("div", "pz-state", "Seat handed over when the Wild Card was claimed"));
  }
  tr.append(winner(r), prizeCell(r), amountCell(r), how);
  return tr;
}

/** Every second: the time left on each owed prize, red under 48 hours. */
function tickLeft() {
  const now = link().now();
  for (const tr of /** @type {NodeListOf<HTMLElement>} */ (
    $("pz-owed").querySelectorAll("tr"))) {
    const left = Number(tr.dataset.deadline) - now;
    const text = tr.querySelector(".pz-left-text");
    if (text) text.textContent = timeLeft(left);
    tr.classList.toggle("urgent", left < URGENT_MS);
  }
}

// -- the Pay dialog ---------------------------------------------------------------------------

/** @param {Row} r */
function openPay(r) {
  state.paying = r;
  $("pz-pay-what").textContent = `${r.name} · ${r.what} · ${r.amount_text}`;
  $("pz-last4", HTMLInputElement).value = "";
  $("pz-last4-kept").textContent = "";
  // the card the winner presents: the controller checks it is the winner's before the winner
  // signs (a ticket sold without a card is claimed with the ticket alone)
  $("pz-card", HTMLInputElement).value = "";
  $("pz-card-box").hidden = r.card === "";
  $("pz-pay-ack").hidden = true;
  $("pz-pay").hidden = false;
  $($("pz-card-box").hidden ? "pz-method" : "pz-card").focus();
}

function closePay() {
  $("pz-pay").hidden = true;
  $("pz-last4", HTMLInputElement).value = "";
  $("pz-card", HTMLInputElement).value = "";
  state.paying = null;
}

/** The ID field keeps only the last 4 letters or digits of what is typed or pasted: a whole ID
 * number typed out of habit leaves its last 4 in the field (never its first 4, as a maxlength
 * would) and the rest is gone from the page at once, so it is never sent or stored. Keeping
 * them beats refusing: the person at the desk types the number as it is printed, without
 * counting, and sees the 4 that will be recorded (docs/prizes.md: the type and last 4 only). */
function keepLast4() {
  const field = $("pz-last4", HTMLInputElement);
  const typed = field.value.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
  const kept = typed.slice(-4);
  if (field.value !== kept) field.value = kept;
  $("pz-last4-kept").textContent = typed.length > 4
    ? `Kept: ${kept}, the last 4 of what was typed; the rest is not kept.`
    : "";
}

/** Is the card presented this prize's winner's (and may it be paid now)? Asked before the pad
 * opens, so a wrong card is refused with nothing to type or sign again; the controller answers
 * in words that never hold the winner's digits, and checks it all again at payment.
 * @param {Row} r @param {string | null} card @returns {Promise<boolean>} */
async function cardMatches(r, card) {
  const box = $("pz-pay-ack");
  showAnswer(box, "pending", "Checking the card…");
  try {
    const answer = await link().call("prize_card_check", {prize: r.prize, card});
    if (!answer.ok) {
      showAnswer(box, "error", "Refused", answer.error.message);
      return false;
    }
    box.hidden = true;
    return true;
  } catch {
    showAnswer(box, "error", "The controller did not answer",
      "Check the connection and press again.");
    return false;
  }
}

async function signAndPay() {
  const r = state.paying;
  if (r === null) return;
  const last4 = $("pz-last4", HTMLInputElement).value;
  const card = $("pz-card", HTMLInputElement).value.replace(/\s/g, "") || null;
  if (r.card && card === null) {
    showAnswer($("pz-pay-ack"), "error", "Check the card",
      "Scan or type the Rewards card the winner presents.");
    return;
  }
  if (last4.length !== 4) {
    showAnswer($("pz-pay-ack"), "error", "Check the ID",
      "Type the document's last 4 letters or digits, or its whole number: only the last 4 " +
      "are kept.");
    return;
  }
  const sign = $("pz-sign", HTMLButtonElement);
  sign.disabled = true;
  const matches = await cardMatches(r, card);
  sign.disabled = false;
  if (!matches || state.paying !== r) return;
  $("pz-pay").hidden = true;
  const signature = await askSignature({title: `${r.name} signs for the prize`,
    prompt: `I received ${r.amount_text}: ${r.what}.`});
  if (signature === null) {
    $("pz-pay").hidden = false;
    showAnswer($("pz-pay-ack"), "pending", "Not paid", "The winner has not signed yet.");
    return;
  }
  const payload = {prize: r.prize, card, cents: r.cents,
    method: $("pz-method", HTMLSelectElement).value,
    id_type: $("pz-id-type", HTMLSelectElement).value, id_last4: last4, signature};
  closePay();
  await act({box: $("pz-ack"), label: "Pay a prize", type: "prizes.pay", payload,
    values: `${r.name}, ${r.amount_text}`,
    done: () => `${r.name}'s prize of ${r.amount_text} is paid and signed for.`});
  await refresh();
}

function start() {
  $("pz-cancel").addEventListener("click", closePay);
  $("pz-last4").addEventListener("input", keepLast4);
  $("pz-sign").addEventListener("click", () => { signAndPay(); });
  document.querySelector('[data-tab="prizes"]')?.addEventListener("click", () => { refresh(); });
  setInterval(() => { refresh(); }, REFRESH_MS);
  setInterval(() => { if (!$("page-prizes").hidden) tickLeft(); }, 1000);
  panel({
    name: "prizes",
    render: (changed) => {
      if (!state.asked || changed.has("cues")) {
        state.asked = true;
        refresh();
      }
    },
  });
}

start();
