/* The Tournament panel: standings with names, a new player registered and entered, and a
 * score recorded (or corrected, with a reason) for a player picked by name from the
 * operator's view (ops:<promotion>): the MC never types an entry id.
 *
 * Scores may be typed as the floor writes them ("60,000", "60 000"); the page only takes the
 * separators out, and anything else is sent as typed for the controller to name what is wrong.
 */
"use strict";

(() => {
  const {$, el, humanize} = Showrunner;
  const {act, amount, grouped} = Console;
  const MATCHES = 8;

  const state = {promotion: null, picked: null};
  const link = () => Console.state.link;

  /** The promotions with an operator view, in name order (ops:screens is not one). */
  function promotions() {
    return [...link().views.keys()]
      .filter((name) => name.startsWith("ops:") && name !== "ops:screens")
      .map((name) => name.slice(4)).sort();
  }

  function entries() {
    return link().doc(`ops:${state.promotion}`)?.entries ?? [];
  }

  function picked() {
    return entries().find((e) => e.entry === state.picked) ?? null;
  }

  function render(changed) {
    const names = promotions();
    if (!names.includes(state.promotion)) state.promotion = names[0] ?? null;
    if (changed === undefined || [...changed].some((n) => n.startsWith("ops:"))) renderChips(names);
    renderStandings();
    renderHeats();
    renderFinalists();
    renderMatches();
    renderPicked();
  }

  function renderChips(names) {
    $("tn-promotions").replaceChildren(...names.map((name) => {
      const chip = Console.button(humanize(name), "chip", () => {
        state.promotion = name;
        state.picked = null;
        render();
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

  /** The operator's view masks cards to their last four digits: a card matches on those. */
  function matches(query) {
    const digits = cardDigits(query);
    return entries().filter((e) => {
      if (digits === null) return e.name.toLowerCase().includes(query.toLowerCase());
      const tail = e.card.replace(/\D/g, "");
      return digits.length >= tail.length ? digits.endsWith(tail) : tail.includes(digits);
    });
  }

  /** A card reader types the number then Enter: one player with that card is picked (their
   * entry still to score, if they have one). */
  function onSearchKey(event) {
    if (event.key !== "Enter") return;
    const query = $("tn-search").value;
    if (cardDigits(query) === null) return;
    event.preventDefault();
    const found = matches(query);
    const names = new Set(found.map((e) => e.name));
    if (names.size !== 1) return;
    const open = found.filter((e) => e.status === "active" && e.score === null);
    choose((open.length ? open : found).at(-1));
  }

  function choose(e) {
    state.picked = e.entry;
    $("tn-search").value = "";
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
    const query = $("tn-search").value.trim();
    const list = $("tn-matches");
    if (!query) {
      list.replaceChildren(el("p", "muted",
        "Type part of the player's name, or swipe their card."));
      return;
    }
    const found = matches(query).slice(0, MATCHES);
    list.replaceChildren(...(found.length ? found.map((e) => {
      const choice = Console.button("", "match", () => choose(e));
      choice.append(el("span", "match-name", e.name), el("span", "match-detail", describe(e)));
      return choice;
    }) : [el("p", "muted", `Nobody called “${query}” in ${humanize(state.promotion)}.`)]));
  }

  function renderPicked() {
    const e = picked();
    $("tn-score-form").hidden = e === null;
    if (e === null) return;
    $("tn-picked-name").textContent = e.name;
    $("tn-picked-detail").textContent = describe(e);
    const correcting = e.score !== null;
    $("tn-reason-field").hidden = !correcting;
    $("tn-hands-field").hidden = state.promotion !== "poker" || correcting;
    $("tn-record").textContent = correcting ? "Correct score" : "Record score";
  }

  function sendScore() {
    const e = picked();
    if (e === null) return;
    const score = amount($("tn-score").value);
    const correcting = e.score !== null;
    const payload = {entry: e.entry, score};
    const shown = typeof score === "number" ? grouped(score) : `“${score}”`;
    let values = `${e.name} · ${shown}`;
    if (correcting) {
      payload.reason = $("tn-reason").value.trim();
      values += ` · reason: ${payload.reason || "none"}`;
    } else if (state.promotion === "poker") {
      payload.hands = amount($("tn-hands").value);
    }
    const type = `${state.promotion}.${correcting ? "correct_score" : "record_score"}`;
    act({box: $("tn-ack"), label: correcting ? "Correct score" : "Record score", type, payload,
      values, done: () => `${e.name}: ${shown} ${correcting ? "corrected" : "recorded"}.`})
      .then((ack) => {
        if (ack?.ok) {
          $("tn-score").value = "";
          $("tn-reason").value = "";
        }
      });
  }

  async function registerAndEnter() {
    const card = cardDigits($("tn-new-card").value) ?? $("tn-new-card").value.trim();
    const name = $("tn-new-name").value.trim();
    const box = $("tn-new-ack");
    const promotion = state.promotion;
    if (name) {
      const registered = await act({box, label: "Register member", type: "register_member",
        payload: {card, display_name: name}, values: `${name} · card ${card}`,
        done: () => `${name} is registered.`});
      if (!registered?.ok) return;
    }
    const entered = await act({box, label: `Enter ${humanize(promotion)}`,
      type: `${promotion}.enter`, payload: {card}, values: `${name || "card"} · card ${card}`,
      done: () => `${name || `Card ${card}`} is entered in ${humanize(promotion)}.`});
    if (entered?.ok) {
      $("tn-new-card").value = "";
      $("tn-new-name").value = "";
    }
  }

  $("tn-search").addEventListener("input", renderMatches);
  $("tn-search").addEventListener("keydown", onSearchKey);
  $("tn-record").addEventListener("click", sendScore);
  $("tn-enter").addEventListener("click", registerAndEnter);
  Console.panel({name: "tournament", render});
})();
