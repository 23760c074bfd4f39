// @ts-check
/* The Wild Card panel, in procedure order: pool and digest, freeze (the close of Slots
 * qualifying offered where the freeze is refused for it, slots rule 17), draw (and showing it
 * on the floor, when no screen shows it), the winner with the claim countdown the floor shows
 * (the view's absolute deadline on the controller's clock), claimed / accept from the register
 * / redraw, a stand-in, and the rounds so far. The desk's activation is wildcard_desk.js.
 *
 * Only the step the draw is at is offered; the controller still decides every rule.
 */

import {$, el} from "./link.js";
import {humanize} from "./words.js";
import {act, confirm, count, grouped, span, panel, link, may} from "./console.js";
import {floorShowing, showOn} from "./takeover.js";
import "./wildcard_desk.js";
const VIEW = "draw:wildcard";
/** the scenes that show the draw's name on the floor (docs/scenes.md) */
const DRAW_SCENES = ["wildcard_draw", "claim_countdown"];

/** An answer holds until the round, its draw, its claim window (open or up) or the finalist
 * move on: a refusal from an earlier moment never stays under a later step's buttons.
 * @type {import("./console.js").About} */
const ABOUT = {view: VIEW, key: (d, now) => [d.round, d.spin_started_at,
  d.phase === "claim" && d.claim_deadline !== null && now >= d.claim_deadline,
  d.phase === "finalist"].join(":")};

const doc = () => link().doc(VIEW);

function phaseWords(d, now) {
  const name = d.winner?.name ?? d.finalist?.name ?? "";
  switch (d.phase) {
    case "entries":
      return now < d.bins_close_at
        ? `Entries open: ${count(d.activated, "member")} activated. The bins close in ` +
          `${span(d.bins_close_at - now)}.`
        : "The bins have closed: freeze the pool.";
    case "frozen":
      return `Round ${d.round}: the pool is frozen. Draw when the floor is ready.`;
    case "drawing":
      return `Round ${d.round}: drawing… the name is revealed in ` +
        `${span((d.reveal_at ?? now) - now)}.`;
    case "claim":
      if (d.winner?.in_register) {
        return `Round ${d.round}: ${name} signed the decline-to-attend register: accept ` +
          "them as the finalist.";
      }
      return now < d.claim_deadline
        ? `Round ${d.round}: ${name} must come to the stage with card and ID.`
        : `Round ${d.round}: ${name}'s time is up. Start a redraw.`;
    default: {
      const f = d.finalist;
      const how = f?.present ? "claimed on stage" : "in absence, from the register";
      const standIn = f?.stand_in ? `; stand-in ${f.stand_in}` : "";
      return `${name} is the Wild Card finalist (${how}${standIn}).`;
    }
  }
}

function render() {
  const d = doc();
  $("wc-empty").hidden = d !== undefined;
  $("wc-body").hidden = d === undefined;
  if (d === undefined) return;
  const now = link().now();
  $("wc-phase").textContent = phaseWords(d, now);
  renderPool(d);
  renderWinner(d, now);
  // the name reaches the views a moment before the floor shows it: act from the reveal on
  const claiming = d.phase === "claim" && (d.reveal_at === null || now >= d.reveal_at);
  const open = claiming && now < d.claim_deadline;
  const inRegister = d.winner?.in_register === true;
  $("wc-freeze-box").hidden = !(d.phase === "entries" && now >= d.bins_close_at);
  $("wc-draw-box").hidden = d.phase !== "frozen";
  $("wc-claim-box").hidden = !(open && !inRegister);
  $("wc-accept-box").hidden = !(claiming && inRegister);
  $("wc-redraw-box").hidden = !(claiming && !open && !inRegister);
  $("wc-standin-box").hidden = !(d.phase === "finalist" && d.finalist?.present === false &&
    !d.finalist?.stand_in);
  renderHistory(d, now);
}

function renderPool(d) {
  const pool = d.pool;
  $("wc-pool").replaceChildren(
    fact("Activated", grouped(d.activated)),
    fact("Pool", pool ? `${count(pool.members, "member")}, ${count(pool.tickets, "ticket")}`
      : "not frozen yet"),
    fact("Digest", pool ? pool.digest : "—", "digest"),
  );
}

function fact(term, value, className = "") {
  const wrap = el("div", "fact");
  wrap.append(el("dt", "", term), el("dd", className, value));
  return wrap;
}

function renderWinner(d, now) {
  const w = d.winner;
  $("wc-winner").hidden = !(d.phase === "claim" && w);
  if (!w) return;
  $("wc-winner-name").textContent = w.name;
  $("wc-winner-card").textContent = `Card ${w.masked_card} · ticket ${w.ticket}` +
    (w.in_register ? " · in the decline-to-attend register" : "");
  const left = d.claim_deadline - now;
  const box = $("wc-countdown");
  box.hidden = w.in_register;
  box.dataset.kind = left <= 0 ? "up" : left <= 30000 ? "short" : "running";
  $("wc-countdown-time").textContent = span(left);
  $("wc-countdown-label").textContent = left > 0 ? "left to claim" : "Time is up";
}

function renderHistory(d, now) {
  const rounds = d.redraws.map((r) => el("li", "round",
    `Round ${r.round}: ${r.name} (${r.masked_card}) — ${r.cause}`));
  if (d.finalist) {
    rounds.push(el("li", "round final", `Round ${d.round}: ${d.finalist.name} ` +
      `(${d.finalist.masked_card}) — finalist`));
  } else if (d.winner) {
    rounds.push(el("li", "round", `Round ${d.round}: ${d.winner.name} ` +
      `(${d.winner.masked_card}) — drawn, ` +
      `${now < d.claim_deadline ? "claim open" : "time up"}`));
  }
  $("wc-history").replaceChildren(...(rounds.length ? rounds
    : [el("li", "muted", "No round drawn yet.")]));
}

const box = () => $("wc-ack");

function freeze() {
  act({box: box(), label: "Freeze the pool", type: "wildcard.freeze", payload: {},
    about: ABOUT, done: () => "The pool is frozen; its size and digest are on the floor."});
}

async function draw() {
  const d = doc();
  const ok = await confirm("Draw the Wild Card winner now?",
    `Round ${d.round}: ${count(d.pool?.tickets ?? 0, "ticket")}. The draw cannot be undone.`,
    "Yes, draw");
  if (!ok) return;
  act({box: box(), label: "Draw", type: "wildcard.draw", payload: {},
    values: `round ${d.round}`, about: ABOUT, done: drawnWords, offers: showTheDraw});
}

/** The floor shows the name only where a group is taken over with the draw: say so. */
function drawnWords() {
  const floor = floorShowing(DRAW_SCENES);
  const dark = floor.filter((g) => !g.showing).map((g) => humanize(g.group));
  if (floor.length === 0) return "Drawn, but no screen is showing: the floor shows no draw.";
  if (dark.length === 0) return "Drawn: the name appears on the floor after the reel stops.";
  return `Drawn, but the floor is not showing the draw: ${dark.join(", ")} ` +
    `${dark.length === 1 ? "is" : "are"} on ${dark.length === 1 ? "its" : "their"} playlist.`;
}

/** A button per group not showing the draw: take it over with the draw's scene, its claim
 * ring as long as this draw's claim (the drawn event's own times).
 * @param {import("./link.js").Ack} ack @returns {import("./console.js").Offer[]} */
function showTheDraw(ack) {
  if (!ack.ok || !may("takeover.start")) return [];
  const drawn = ack.events.find((e) => e.type === "WildcardDrawn")?.data ?? {};
  const claimMs = Number(drawn.claim_deadline_ms) - Number(drawn.reveal_at_ms);
  const params = claimMs > 0 ? {claim_seconds: Math.round(claimMs / 1000)} : {};
  return floorShowing(DRAW_SCENES).filter((g) => !g.showing).map(({group}) => ({
    text: `Show the draw on ${humanize(group)}`,
    press: () => showOn({group, scene: "wildcard_draw", words: "Wild Card draw", params,
      box: box(), about: ABOUT}),
  }));
}

function claim() {
  const card = $("wc-card-checked", HTMLInputElement).checked;
  const id = $("wc-id-checked", HTMLInputElement).checked;
  const name = doc()?.winner?.name ?? "the winner";
  act({box: box(), label: "Claimed", type: "wildcard.claim",
    payload: {card_checked: card, id_checked: id}, about: ABOUT,
    values: `${name} · card ${card ? "checked" : "not checked"} · ID ${id ? "checked" : "not checked"}`,
    done: () => `${name} is the Wild Card finalist.`});
}

function acceptRegistered() {
  const name = doc()?.winner?.name ?? "the winner";
  act({box: box(), label: "Accept from the register", type: "wildcard.accept_registered",
    payload: {}, values: name, about: ABOUT,
    done: () => `${name} is the finalist in absence.`});
}

async function redraw() {
  const d = doc();
  const name = d?.winner?.name ?? "the winner";
  const ok = await confirm(`Redraw? ${name} loses the Wild Card.`,
    `${name} did not claim in time. A new round is drawn from the rest of the pool. ` +
    "This cannot be undone.", "Yes, redraw");
  if (!ok) return;
  const note = $("wc-redraw-note", HTMLInputElement).value.trim();
  act({box: box(), label: "Redraw", type: "wildcard.redraw", payload: {note},
    values: `${name}${note ? ` · ${note}` : ""}`, about: ABOUT,
    done: () => "A new round's pool is frozen: draw again when ready."}).then((ack) => {
    if (!ack?.ok) return;
    // the next winner's card and ID are checked afresh
    $("wc-card-checked", HTMLInputElement).checked = false;
    $("wc-id-checked", HTMLInputElement).checked = false;
    $("wc-redraw-note", HTMLInputElement).value = "";
  });
}

function standIn() {
  const name = $("wc-standin-name", HTMLInputElement).value.trim();
  const acknowledged = $("wc-standin-ack", HTMLInputElement).checked;
  act({box: box(), label: "Stand-in", type: "wildcard.stand_in",
    payload: {name, acknowledged_not_entitled: acknowledged}, about: ABOUT,
    values: `${name}${acknowledged ? " · acknowledged" : " · not acknowledged"}`,
    done: () => `${name} stands in for the finalist.`});
}

function wire() {
  $("wc-freeze").addEventListener("click", freeze);
  $("wc-draw").addEventListener("click", draw);
  $("wc-claim").addEventListener("click", claim);
  $("wc-accept").addEventListener("click", acceptRegistered);
  $("wc-redraw").addEventListener("click", redraw);
  $("wc-standin").addEventListener("click", standIn);
}

wire();
panel({name: "wildcard", views: [VIEW], render, ticks: true});
