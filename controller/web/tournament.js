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
  const {act, grouped} = Console;
  const MATCHES = 8;

  const state = {promotion: null, picked: null};
  const link = () => Console.state.link;

  /** The promotions with an operator view, in name order (ops:screens is not one). */
  function promotions() {
    return [...link().views.keys()]
      .filter((name) => name.startsWith("ops:") && name !== "ops:screens")
      .map((name) => name.slice(4)).sort();
  }

  /** "60,000" / "60 000" / "60000" -> 60000; anything else stays text for the server to refuse. */
  function scoreValue(text) {
    const typed = text.trim();
    if (/^\d{1,3}([ ,\u00a0\u202f']\d{3})+$/.test(typed)) return Number(typed.replace(/\D/g, ""));
    return /^\d+$/.test(typed) ? Number(typed) : typed;
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

  function describe(e) {
    const where = [e.stage, e.heat, e.seat ? `seat ${e.seat}` : null]
      .filter(Boolean).join(", ");
    const score = e.score === null ? "no score yet" : `score ${grouped(e.score)}`;
    const status = e.status === "active" ? "" : ` · ${humanize(e.status)}`;
    return `Card ${e.card} · ${where} · ${score}${status}`;
  }

  function renderMatches() {
    const query = $("tn-search").value.trim().toLowerCase();
    const list = $("tn-matches");
    if (!query) {
      list.replaceChildren(el("p", "muted", "Type part of the player's name."));
      return;
    }
    const found = entries().filter((e) => e.name.toLowerCase().includes(query) ||
      e.card.includes(query)).slice(0, MATCHES);
    list.replaceChildren(...(found.length ? found.map((e) => {
      const choice = Console.button("", "match", () => {
        state.picked = e.entry;
        $("tn-search").value = "";
        renderMatches();
        renderPicked();
        $("tn-score").focus();
      });
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
    const score = scoreValue($("tn-score").value);
    const correcting = e.score !== null;
    const payload = {entry: e.entry, score};
    const shown = typeof score === "number" ? grouped(score) : `“${score}”`;
    let values = `${e.name} · ${shown}`;
    if (correcting) {
      payload.reason = $("tn-reason").value.trim();
      values += ` · reason: ${payload.reason || "none"}`;
    } else if (state.promotion === "poker") {
      payload.hands = scoreValue($("tn-hands").value);
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
    const card = $("tn-new-card").value.trim();
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
  $("tn-record").addEventListener("click", sendScore);
  $("tn-enter").addEventListener("click", registerAndEnter);
  Console.panel({name: "tournament", render});
})();
