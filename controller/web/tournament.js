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
  /** @type {{key: string, absent: Set<string>} | null} the heat whose "Start heat…" is open,
   * with the entries ticked absent */
  starting: null,
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

/** A heat as the panel lists it: its stage, its name, the words it is shown by, its seats.
 * @typedef {{key: string, label: string, stage: string, heat: string, seats: Entry[]}} Heat */

/** The answer box beside each heat, kept across renders (by promotion, stage and heat). */
const heatAcks = new Map();

/** @param {string} key @returns {HTMLElement} */
function heatAck(key) {
  let box = heatAcks.get(key);
  if (box === undefined) {
    box = el("div", "ack");
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "assertive");
    box.hidden = true;
    heatAcks.set(key, box);
  }
  return box;
}

/** Whether a heat's "Start heat…" is offered: the role may send it, the stage is open (no
 * later stage is seated yet), the heat has not started, a seat still plays, and no slot bank
 * feeds it (ops:feed: the bank starts the heats it plays).
 * @param {Heat} h @param {string[]} order @param {Set<string>} seated */
function startable(h, order, seated) {
  const doc = link().doc(`ops:${state.promotion}`);
  if (!may(`${state.promotion}.start_heat`) || doc?.started?.[h.stage]?.includes(h.heat)) {
    return false;
  }
  if (order.slice(order.indexOf(h.stage) + 1).some((stage) => seated.has(stage))) return false;
  const fed = state.promotion === "slots" && (link().doc("ops:feed")?.banks ?? []).some(
    (b) => b.status !== "restarted" && b.stage === h.stage && b.heat === h.heat);
  return !fed && h.seats.some((e) => e.status === "active" && e.score === null);
}

/** The heats with a player still to score (and every later stage's seating), by seat; each
 * not yet started with its "Start heat…" (who is absent ticked by name), or "started". */
function renderHeats() {
  const doc = link().doc(`ops:${state.promotion}`);
  /** @type {Map<string, Heat>} */
  const heats = new Map();
  for (const e of entries()) {
    if (e.heat === null || ["refunded", "to_final"].includes(e.status)) continue;
    const label = `${e.stage === "qualifying" ? "" : `${humanize(e.stage)} · `}${e.heat}`;
    if (!heats.has(label)) {
      heats.set(label, {key: `${state.promotion}|${e.stage}|${e.heat}`, label, stage: e.stage,
        heat: e.heat, seats: []});
    }
    heats.get(label)?.seats.push(e);
  }
  const shown = [...heats.values()].filter((h) => h.seats.some((e) => e.stage !== "qualifying" ||
    (e.status === "active" && e.score === null)));
  const order = Object.keys(doc?.signatures ?? {});
  const seated = new Set(entries().map((e) => e.stage));
  const rows = shown.map((h) => ({h, started: Boolean(doc?.started?.[h.stage]?.includes(h.heat)),
    offer: startable(h, order, seated)}));
  const starting = state.starting;
  const shape = JSON.stringify([state.promotion, rows.map(({h, started, offer}) => [h.key,
    started, offer, h.seats.map((e) => [e.entry, e.seat, e.name, e.score, e.status])]),
  starting && [starting.key, [...starting.absent]]]);
  const holder = $("tn-heats");
  if (holder.dataset.shape === shape) return;
  holder.dataset.shape = shape;
  holder.replaceChildren(...(rows.length ? rows.map(({h, started, offer}) => {
    const wrap = el("div", "heat");
    const head = el("div", "heat-head");
    head.append(el("div", "heat-name", h.label));
    if (started) {
      head.append(el("span", "heat-started", "started"));
    } else if (offer && starting?.key !== h.key) {
      head.append(button("Start heat…", "big heat-start", () => {
        state.starting = {key: h.key, absent: new Set()};
        renderHeats();
      }));
    }
    wrap.append(head, el("div", "heat-seats", h.seats
      .sort((a, b) => a.seat - b.seat)
      .map((e) => `${e.seat} ${e.name}${e.score == null ? "" : ` (${grouped(e.score)})`}` +
        `${e.status === "active" ? "" : ` · ${humanize(e.status)}`}`).join(" · ")));
    if (offer && starting?.key === h.key) wrap.append(startForm(h, starting.absent));
    wrap.append(heatAck(h.key));
    return wrap;
  }) : [el("p", "muted", "No heat is waiting for scores.")]));
}

/** The inline step of "Start heat…": who is not here, ticked by name, then Start or Cancel.
 * @param {Heat} h @param {Set<string>} absent */
function startForm(h, absent) {
  const form = el("div", "stack heat-start-form");
  form.append(el("p", "muted", "Tick each player who is not here: they forfeit their seat " +
    "(the no-show rule)."));
  for (const e of h.seats.filter((s) => s.status === "active")) {
    const label = el("label", "check");
    const tick = el("input");
    tick.type = "checkbox";
    tick.checked = absent.has(e.entry);
    tick.addEventListener("change", () => {
      if (tick.checked) absent.add(e.entry); else absent.delete(e.entry);
    });
    label.append(tick, document.createTextNode(`${e.name} is absent (seat ${e.seat})`));
    form.append(label);
  }
  const row = el("div", "row");
  row.append(button(`Start ${h.heat}`, "big", () => startHeat(h)),
    button("Cancel", "big", () => { state.starting = null; renderHeats(); }));
  form.append(row);
  return form;
}

/** Send `start_heat` for `h` with the players ticked absent; a forfeit is asked first.
 * @param {Heat} h */
async function startHeat(h) {
  const promotion = state.promotion;
  const ticked = state.starting?.key === h.key ? state.starting.absent : new Set();
  const absent = h.seats.filter((e) => ticked.has(e.entry));
  const names = absent.map((e) => e.name).join(", ");
  if (absent.length && !await confirm(`Start ${h.label} with ${names} absent?`,
    `${names} ${absent.length === 1 ? "forfeits" : "forfeit"} the seat for not being ` +
    "present (the no-show rule); this cannot be undone.", `Yes, start ${h.heat}`)) return;
  const byId = new Map(h.seats.map((e) => [e.entry, e.name]));
  const ack = await act({box: heatAck(h.key), label: "Start heat",
    type: `${promotion}.start_heat`,
    payload: {stage: h.stage, heat: h.heat, absent: absent.map((e) => e.entry)},
    values: `${h.label} · ${absent.length ? `absent: ${names}` : "everyone here"}`,
    done: (answer) => [`${h.label} has started.`, ...(answer.ok ? answer.events : [])
      .filter((ev) => ev.type === "TournamentEntryRemoved")
      .map((ev) => `${byId.get(String(ev.data?.entry)) ?? "A player"} forfeits the seat: ` +
        `${ev.data?.reason}.`)].join(" ")});
  if (ack?.ok && state.starting?.key === h.key) {
    state.starting = null;
    renderHeats();
  }
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
