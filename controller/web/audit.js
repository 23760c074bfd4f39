// @ts-check
/* The Audit panel: a read-only view for the auditor (and the operator) of what the rules
 * decided and who was paid, with the three things an auditor does here: verify the chain now
 * (the `verify_chain` query, run off the controller's loop), download a promotion's PDF record
 * (GET /audit/report.pdf) and, for the auditor only, certify a period with a signature
 * (`audit.certify`, the pad from ./signature.js).
 *
 * Its days are chosen and written as the venue writes them ("4 June 2025", ./venue_day.js),
 * whatever the browser's locale, and its lists are in the order things happened. Nothing here
 * decides a rule: the controller's sentences are shown as they come. An auditor sees no
 * button for a command their role may not send (console.js `may`).
 */

import {$, el} from "./link.js";
import {askSignature} from "./signature.js";
import {act, count, grouped, link, may, panel, showAnswer, state as consoleState}
  from "./console.js";
import {MONTHS, dayWords, isoOf, venueDay, venueTime} from "./venue_day.js";
import {timeLeft} from "./words.js";

const PROMOTIONS = [["wildcard", "Wild Card draw"], ["slots", "Slots PAYOFF"],
  ["roulette", "Roulette Spin-Off"], ["poker", "Heads-Up Poker Showdown"], ["super9", "Super 9"]];
const DRAW_VIEW = "draw:wildcard";

const YEARS_BACK = 10;  // the years an auditor may choose: ten back, and the next

/** The venue's zone (the `venue` view), for its calendar and clock. */
function zone() {
  return link().doc("venue")?.timezone;
}

/** @param {string} label @param {[string, string][]} options value, words */
function select(label, options) {
  const node = /** @type {HTMLSelectElement} */ (el("select", "text"));
  node.setAttribute("aria-label", label);
  node.append(...[["", "—"], ...options].map(([value, words]) => {
    const option = /** @type {HTMLOptionElement} */ (el("option", "", words));
    option.value = value;
    return option;
  }));
  return node;
}

/** A day chosen as the venue writes it: day, month (in words), year, in that order, whatever
 * the browser's locale. All three or none: choosing one fills the others with today at the
 * venue; choosing "—" in one clears the day. @param {string} id */
function dayPicker(id) {
  const {year} = venueDay(link().now(), zone());
  const days = Array.from({length: 31}, (_, i) => String(i + 1));
  const years = Array.from({length: YEARS_BACK + 2},
    (_, i) => String(year - YEARS_BACK + i));
  const parts = [select("Day", days.map((d) => [d, d])),
    select("Month", MONTHS.map((m, i) => [String(i + 1), m])),
    select("Year", years.map((y) => [y, y]))];
  for (const part of parts) {
    part.addEventListener("change", () => {
      if (part.value === "") {
        for (const other of parts) other.value = "";
      } else if (parts.some((other) => other.value === "")) {
        const today = venueDay(link().now(), zone());
        const fill = [today.day, today.month, today.year].map(String);
        parts.forEach((other, i) => { if (other.value === "") other.value = fill[i]; });
      }
      renderDownload();
    });
  }
  $(id).replaceChildren(...parts);
}

/** The day a picker holds: ISO, "" when none is chosen, or null when the calendar has no such
 * day (31 June). @param {string} id */
function chosenDay(id) {
  const [day, month, year] = [...$(id).querySelectorAll("select")].map((s) => s.value);
  if (!day || !month || !year) return "";
  return isoOf({year: Number(year), month: Number(month), day: Number(day)});
}

/** The promotion and the period chosen, and what is wrong with the period in words, if
 * anything. */
function period() {
  const from = chosenDay("au-from");
  const to = chosenDay("au-to");
  let problem = "";
  if (from === null || to === null) {
    problem = `There is no such day as ${from === null ? "the first" : "the last"} one ` +
      "chosen: choose another.";
  } else if (from && to && from > to) {
    problem = "The first day is after the last day: choose them again.";
  }
  return {promotion: $("au-promotion", HTMLSelectElement).value, from: from ?? "",
    to: to ?? "", problem};
}

function renderDownload() {
  const {promotion, from, to, problem} = period();
  const query = new URLSearchParams({promotion});
  if (from) query.set("from", from);
  if (to) query.set("to", to);
  const anchor = $("au-download", HTMLAnchorElement);
  anchor.href = `/audit/report.pdf?${query}`;
  anchor.hidden = problem !== "";
  const name = PROMOTIONS.find(([p]) => p === promotion)?.[1] ?? promotion;
  const days = periodWords(from, to);
  anchor.textContent = `Download the report: ${name}` + (days ? `, ${days}` : "");
  $("au-period").textContent = problem || (days ? "" : "The whole record: choose days to " +
    "report a period.");
}

/** "4 June 2025 to 5 June 2025", "from 4 June 2025", "up to 5 June 2025", or "" (the whole
 * record). @param {string} from @param {string} to */
function periodWords(from, to) {
  if (from && to) return `${dayWords(from)} to ${dayWords(to)}`;
  if (from) return `from ${dayWords(from)}`;
  if (to) return `up to ${dayWords(to)}`;
  return "";
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

const METHODS = {cash: "cash", eft: "EFT", cheque: "cheque", voucher: "voucher"};

/** How a prize stands, in words: owed with the time left, or how it ended. */
function standing(prize) {
  if (prize.paid) {
    const p = prize.paid;
    return `Paid ${venueTime(p.at_ms, zone())} by ${p.paid_by} ` +
      `(${METHODS[p.method] ?? p.method}); ${p.id_type} ending ${p.id_last4}`;
  }
  if (prize.lapsed) return `Lapsed ${venueTime(prize.lapsed.at_ms, zone())}: ` +
    prize.lapsed.consequence;
  if (prize.state === "seated") return "Seat handed over when the Wild Card was claimed";
  return `Owed: ${timeLeft(prize.deadline_ms - link().now())}`;
}

/** One row of the `prize_register` query in words, laid out to fit a half-width column: who
 * and how much, the prize, how it stands (never an id, a JSON or an epoch). */
function prizeRow(prize) {
  const row = el("li", `au-prize au-${prize.state}`);
  const who = el("div", "au-who", prize.name);
  if (prize.card) who.append(el("span", "muted", ` ${prize.card}`));
  const amount = prize.kind === "cash" ? el("div", "au-amount", prize.amount_text)
    : el("div", "au-amount muted", "—");
  row.append(who, amount, el("div", "au-what", prize.what),
    el("div", "au-state", standing(prize)));
  return row;
}

async function loadRegister() {
  const body = $("au-register");
  if (!consoleState.queries.has("prize_register")) {
    body.replaceChildren();
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
  // in the order they happened: each redrawn round, then the round now open (its pool,
  // then its winner or finalist)
  const items = [...d.redraws].sort((a, b) => a.round - b.round).map((r) => el("li", "round",
    `Round ${r.round}: ${r.name} (${r.masked_card}) — ${r.cause}`));
  if (d.pool) {
    items.push(el("li", "round", `Round ${d.round} pool: ${count(d.pool.members, "member")}, ` +
      `${count(d.pool.tickets, "ticket")}, digest ${d.pool.digest.slice(0, 12)}…`));
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
  const {promotion, from, to, problem} = period();
  // one paragraph: the controller keeps printable text, no line breaks
  const statement = $("au-statement", HTMLTextAreaElement).value.replace(/\s+/g, " ").trim();
  if (problem) {
    showAnswer(box, "error", "Choose the period", problem);
    return;
  }
  if (!from || !to) {
    showAnswer(box, "error", "Choose the period", "Give the first and the last day you certify.");
    return;
  }
  const name = PROMOTIONS.find(([p]) => p === promotion)?.[1] ?? promotion;
  const days = periodWords(from, to);
  const signature = await askSignature({title: "Certify this period",
    prompt: `Sign to certify ${name} from ${days}.`});
  if (signature === null) {
    showAnswer(box, "error", "Not certified", "The signature was cancelled.");
    return;
  }
  await act({box, label: "Certify this period", type: "audit.certify",
    payload: {promotion, period_from: from, period_to: to, statement, signature},
    values: `${name}, ${days}`,
    done: () => `Certified ${name} from ${days}; the report now carries it.`});
}

let started = false;

function start() {
  started = true;
  $("au-promotion").replaceChildren(...PROMOTIONS.map(([value, label]) => {
    const option = el("option", "", label);
    option.setAttribute("value", value);
    return option;
  }));
  $("au-promotion").addEventListener("change", renderDownload);
  dayPicker("au-from");
  dayPicker("au-to");
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
