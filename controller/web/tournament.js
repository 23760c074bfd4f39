// @ts-check
/* The Tournament panel: standings with names, a new player registered and entered, and a
 * score recorded (or corrected, with a reason) for a player picked by name or card, found by
 * the controller (find_entries: the operator's view ops:<promotion> holds only the entries in
 * play): the MC never types an entry id. Where the rules ask for it (poker rules 20, 35, 51;
 * roulette rule 18) the player signs for the score on the pad ("Sign score"), and the scores
 * not yet signed for are listed.
 *
 * Scores may be typed as the floor writes them ("60,000", "60 000"); the page only takes the
 * separators out, and anything else is sent as typed for the controller to name what is wrong.
 */

import {$, el} from "./link.js";
import {humanize} from "./words.js";
import {act, amount, confirm, grouped, button, may, panel, link} from "./console.js";
import {scoreSheet, signScore, unsigned} from "./score_sheet.js";
import {renderLiveHeat} from "./live_heat.js";
const MATCHES = 8;

/** An entry as the operator's view (or find_entries) gives it.
 * @typedef {{entry: string, name: string, score?: number | null} & Record<string, any>} Entry */

const state = {
  /** @type {string | null} the promotion on show */
  promotion: null,
  /** whether the MC chose it (a chip tapped, a field typed in): until then the panel shows
   * the first chip, the tournament whose heat is being played */
  chosen: false,
  /** @type {string | null} the picked entry's id */
  picked: null,
  /** @type {Entry | null} the picked entry as it was found */
  row: null,
  query: "",  // the query last asked
  answered: "",  // the query `found` answers
  /** @type {Entry[]} */
  found: [],
  /** @type {{entry: string, score: number} | null} a first score above the plausible maximum
   * the MC is asked to confirm, with the reason it stands (poker rules 20, 35, 51) */
  confirming: null,
};

/** A tournament as its operator view says it is one (`kind`), with its display name.
 * @typedef {{name: string, title: string, live: boolean}} Tournament */

/** The tournaments, the one whose heat is being played first, then by their names.
 * @returns {Tournament[]} */
function tournaments() {
  return [...link().views.values()]
    .filter((view) => view.name.startsWith("ops:") && view.doc?.kind === "tournament")
    .map((view) => ({name: view.name.slice(4), title: String(view.doc.title),
      live: view.doc.live === true}))
    .sort((a, b) => Number(b.live) - Number(a.live) || a.title.localeCompare(b.title));
}

/** The display name of the tournament on show ("Slots PAYOFF"). */
function title() {
  return link().doc(`ops:${state.promotion}`)?.title ?? "";
}

function entries() {
  return link().doc(`ops:${state.promotion}`)?.entries ?? [];
}

/** The picked entry: as the operator's view has it now, or as it was found. */
function picked() {
  return entries().find((e) => e.entry === state.picked) ?? state.row;
}

function render(changed) {
  const shown = tournaments();
  if (!state.chosen || !shown.some((t) => t.name === state.promotion)) {
    state.promotion = shown[0]?.name ?? null;
  }
  if (changed === undefined || [...changed].some((n) => n.startsWith("ops:"))) renderChips(shown);
  renderLiveHeat(state.promotion);
  renderStandings();
  renderHeats();
  renderSheets();
  renderFinalists();
  renderMatches();
  renderPicked();
}

/** @param {Tournament[]} shown */
function renderChips(shown) {
  $("tn-promotions").replaceChildren(...shown.map(({name, title: words}) => {
    const chip = button(words, "chip", () => {
      state.promotion = name;
      state.chosen = true;
      state.picked = state.row = null;
      search();
    });
    chip.setAttribute("aria-pressed", String(name === state.promotion));
    return chip;
  }));
}

function renderStandings() {
  const board = link().doc(`leaderboard:${state.promotion}`);
  const rows = board?.rows ?? [];
  $("tn-standings-title").textContent = board ? `${board.title} · ${board.subtitle}` : "Standings";
  $("tn-standings").replaceChildren(...(rows.length ? rows.map((r) => {
    const tr = el("tr");
    tr.append(el("td", "num", String(r.position)), el("td", "", r.name),
      el("td", "num", grouped(r.score)));
    return tr;
  }) : [emptyRow("No scores yet.")]));
}

function emptyRow(text) {
  const tr = el("tr");
  const td = el("td", "muted", text);
  td.colSpan = 3;
  tr.append(td);
  return tr;
}

/** The heats with a player still to score (and every later stage's seating), by seat. */
function renderHeats() {
  const heats = new Map();
  for (const e of entries()) {
    if (e.heat === null || ["refunded", "to_final"].includes(e.status)) continue;
    const key = `${e.stage === "qualifying" ? "" : `${humanize(e.stage)} · `}${e.heat}`;
    if (!heats.has(key)) heats.set(key, []);
    heats.get(key).push(e);
  }
  const shown = [...heats].filter(([, seats]) => seats.some((e) => e.stage !== "qualifying" ||
    (e.status === "active" && e.score === null)));
  $("tn-heats").replaceChildren(...(shown.length ? shown.map(([heat, seats]) => {
    const wrap = el("div", "heat");
    wrap.append(el("div", "heat-name", heat), el("div", "heat-seats", seats
      .sort((a, b) => a.seat - b.seat)
      .map((e) => `${e.seat} ${e.name}${e.score === null ? "" : ` (${grouped(e.score)})`}` +
        `${e.status === "active" ? "" : ` · ${humanize(e.status)}`}`).join(" · ")));
    return wrap;
  }) : [el("p", "muted", "No heat is waiting for scores.")]));
}

/** Whether the stage's scores are signed for by the players (the controller's view says). */
function signs(stage) {
  return Boolean(link().doc(`ops:${state.promotion}`)?.signatures?.[stage]);
}

/** The scores still to be signed for, each with its "Sign score". */
function renderSheets() {
  const waiting = entries().filter((e) => signs(e.stage) && unsigned(e));
  const shape = `${state.promotion}|${waiting.map((e) => `${e.entry}:${e.score}`)}`;
  const holder = $("tn-sheets");
  $("tn-sheets-box").hidden = waiting.length === 0;
  if (holder.dataset.shape === shape) return;
  holder.dataset.shape = shape;
  holder.replaceChildren(scoreSheet(state.promotion ?? "", waiting, $("tn-ack")));
}

/** Who reached each later stage, and how (qualifiers:<promotion>). */
function renderFinalists() {
  const stages = link().doc(`qualifiers:${state.promotion}`)?.stages ?? [];
  const known = stages.filter((s) => s.qualifiers.length);
  $("tn-finalists").replaceChildren(...(known.length ? known.map((s) => {
    const wrap = el("div", "heat");
    wrap.append(el("div", "heat-name", s.title), el("div", "heat-seats", s.qualifiers
      .map((q) => (q.via ? `${q.name} (${q.via})` : q.name)).join(" · ")));
    return wrap;
  }) : [el("p", "muted", "Not known yet: they are seated when the stage before closes.")]));
}

/** Card digits as swiped or typed ("1234 567", "1234-567"), or null if it is not a card. */
function cardDigits(text) {
  const typed = text.trim();
  return /^\d[\d \-]*\d$/.test(typed) ? typed.replace(/\D/g, "") : null;
}

/** The entries whose player's name holds `query`, or whose card it is (the controller
 * matches; newest first). The last query typed wins. */
async function matches(query) {
  const promotion = state.promotion;
  const reply = await link().call("find_entries", {promotion, query}).catch(() => null);
  return reply?.ok && promotion === state.promotion ? reply.entries : [];
}

async function search() {
  const query = $("tn-search", HTMLInputElement).value.trim();
  state.query = query;
  const found = query ? await matches(query) : [];
  if (query !== state.query) return;  // typed on meanwhile
  state.found = found;
  state.answered = query;
  render();
}

/** A card reader types the number then Enter: one player with that card is picked (their
 * entry still to score, if they have one). */
async function onSearchKey(event) {
  if (event.key !== "Enter") return;
  const query = $("tn-search", HTMLInputElement).value;
  if (cardDigits(query) === null) return;
  event.preventDefault();
  const found = await matches(query);
  const names = new Set(found.map((e) => e.name));
  if (names.size !== 1) return;
  const open = found.filter((e) => e.status === "active" && e.score === null);
  choose((open.length ? open : found)[0]);
}

function choose(e) {
  state.picked = e.entry;
  state.row = e;
  $("tn-search", HTMLInputElement).value = "";
  state.query = state.answered = "";
  state.found = [];
  renderMatches();
  renderPicked();
  $("tn-score").focus();
}

function describe(e) {
  const where = [e.stage, e.heat, e.seat ? `seat ${e.seat}` : null]
    .filter(Boolean).join(", ");
  const score = e.score === null ? "no score yet" : `score ${grouped(e.score)}`;
  const status = e.status === "active" ? "" : ` · ${humanize(e.status)}`;
  return `Card ${e.card} · ${where} · ${score}${status}`;
}

function renderMatches() {
  const query = $("tn-search", HTMLInputElement).value.trim();
  const list = $("tn-matches");
  if (!query) {
    list.replaceChildren(el("p", "muted",
      "Type part of the player's name, or swipe their card."));
    return;
  }
  if (query !== state.answered) return;  // its answer is on its way
  const found = state.found.slice(0, MATCHES);
  list.replaceChildren(...(found.length ? found.map((e) => {
    const choice = button("", "match", () => choose(e));
    choice.append(el("span", "match-name", e.name), el("span", "match-detail", describe(e)));
    return choice;
  }) : [el("p", "muted", `Nobody called “${query}” in ${title()}.`)]));
}

function renderPicked() {
  const e = picked();
  $("tn-score-form").hidden = e === null;
  if (e === null) return;
  $("tn-picked-name").textContent = e.name;
  $("tn-picked-detail").textContent = describe(e);
  const correcting = e.score !== null;
  const confirming = state.confirming?.entry === e.entry;
  $("tn-reason-field").hidden = !correcting && !confirming;
  $("tn-reason-label").textContent = confirming && !correcting
    ? "Why this score stands (kept in the log)" : "Reason for the correction";
  $("tn-hands-field").hidden = state.promotion !== "poker" || correcting;
  $("tn-record").textContent = correcting ? "Correct score"
    : confirming ? "Confirm score" : "Record score";
  const asks = signs(e.stage) && e.score !== null && e.status === "active";
  $("tn-sign-state").hidden = !asks;
  $("tn-sign-state").textContent = e.signed ? `${e.signer} signed for this score.`
    : `${e.signer} has not signed for this score yet.`;
  $("tn-sign").hidden = !(asks && !e.signed && may(`${state.promotion}.acknowledge_score`));
}

async function sendScore() {
  const e = picked();
  if (e === null) return;
  const score = amount($("tn-score", HTMLInputElement).value);
  const correcting = e.score !== null;
  /** @type {Record<string, any>} */
  const payload = {entry: e.entry, score};
  const shown = typeof score === "number" ? grouped(score) : `“${score}”`;
  let values = `${e.name} · ${shown}`;
  const reason = $("tn-reason", HTMLInputElement).value.trim();
  const asked = state.confirming;
  const confirming = asked !== null && asked.entry === e.entry && asked.score === score;
  if (correcting || confirming) {
    payload.reason = reason;
    values += ` · reason: ${reason || "none"}`;
  }
  if (confirming) payload.confirm = true;
  if (!correcting && state.promotion === "poker") {
    payload.hands = amount($("tn-hands", HTMLInputElement).value);
  }
  const type = `${state.promotion}.${correcting ? "correct_score" : "record_score"}`;
  const label = correcting ? "Correct score" : "Record score";
  const done = () => `${e.name}: ${shown} ${correcting ? "corrected" : "recorded"}.`;
  let ack = await act({box: $("tn-ack"), label, type, payload, values, done});
  if (ack && !ack.ok && ack.error.code === "confirm_score" && typeof score === "number") {
    if (correcting && !payload.confirm) {
      // a correction already carries its reason: one explicit "Yes" sends it confirmed
      if (await confirm(`Is ${shown} right for ${e.name}?`, ack.error.message,
        `Yes, ${shown} is right`)) {
        ack = await act({box: $("tn-ack"), label, type, payload: {...payload, confirm: true},
          values: `${values} · confirmed`, done});
      }
    } else if (!correcting) {
      state.confirming = {entry: e.entry, score};  // the reason field opens for why it stands
      renderPicked();
      $("tn-reason", HTMLInputElement).focus();
    }
  }
  if (ack?.ok) {
    const row = state.row;
    if (row !== null && row.entry === e.entry && typeof score === "number") {
      state.row = {...row, score};
    }
    state.confirming = null;
    $("tn-score", HTMLInputElement).value = "";
    $("tn-reason", HTMLInputElement).value = "";
    renderPicked();
  }
}

async function registerAndEnter() {
  const typed = $("tn-new-card", HTMLInputElement).value;
  const card = cardDigits(typed) ?? typed.trim();
  const name = $("tn-new-name", HTMLInputElement).value.trim();
  const box = $("tn-new-ack");
  const promotion = state.promotion;
  if (promotion === null) return;  // no tournament on show: its form is not offered
  const words = title();
  if (name) {
    const registered = await act({box, label: "Register member", type: "register_member",
      payload: {card, display_name: name}, values: `${name} · card ${card}`,
      done: () => `${name} is registered.`});
    if (!registered?.ok) return;
  }
  const entered = await act({box, label: `Enter ${words}`,
    type: `${promotion}.enter`, payload: {card}, values: `${name || "card"} · card ${card}`,
    done: () => `${name || `Card ${card}`} is entered in ${words}.`});
  if (entered?.ok) {
    $("tn-new-card", HTMLInputElement).value = "";
    $("tn-new-name", HTMLInputElement).value = "";
  }
}

$("page-tournament").addEventListener("input", () => { state.chosen = true; });
$("tn-search").addEventListener("input", search);
$("tn-search").addEventListener("keydown", onSearchKey);
$("tn-record").addEventListener("click", sendScore);
$("tn-enter").addEventListener("click", registerAndEnter);
$("tn-sign").addEventListener("click", () => {
  const e = picked();
  if (e === null || state.promotion === null) return;
  signScore(state.promotion, e, $("tn-ack")).then((ack) => {
    // a signed score may leave the operator's view: the picked row says it is signed
    if (ack?.ok && state.row !== null && state.row.entry === e.entry) {
      state.row = {...state.row, signed: true};
      renderPicked();
    }
  });
});
panel({name: "tournament", render});
