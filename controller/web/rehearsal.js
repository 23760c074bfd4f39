// @ts-check
/* The Rehearse panel: start a rehearsal of a dated moment (the moments the promotions' configs
 * name, or any date and time) at a speed, open its own console, and stop it.
 *
 * A rehearsal is its own controller on its own port and log (docs/rehearsal.md); nothing here
 * touches the live show. The controller's sentences are shown as they come.
 */

import {$, el} from "./link.js";
import {humanize} from "./words.js";
import {showAnswer, panel} from "./console.js";
const SPEEDS = [1, 2, 4, 10, 30, 60];
const NAMES = {wildcard: "Wild Card draw", super9: "Super 9", slots: "Slots PAYOFF",
  roulette: "Roulette Spin-Off", poker: "Heads-Up Poker"};
const named = (promotion) => NAMES[promotion] ?? humanize(promotion);

const state = {loaded: false, moments: []};

async function ask(method, path, body) {
  let response;
  try {
    response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body)});
  } catch {
    return {ok: false, error: {code: "offline", message: "The controller did not answer; try again."}};
  }
  const text = await response.text();
  try {
    return {status: response.status, ...JSON.parse(text)};
  } catch {
    return {ok: false,
      error: {code: "bad_answer", message: text || `The controller answered ${response.status}.`}};
  }
}

/** The rehearsal's own console: the same host, its port. */
function consoleUrl(port) {
  return `${location.protocol}//${location.hostname}:${port}/tablet`;
}

function renderRunning(answer) {
  const running = answer.running === true;
  $("rh-form").hidden = running;
  $("rh-running").hidden = !running;
  if (!running) {
    if (answer.ended) showAnswer($("rh-ack"), "error", "Stopped", answer.ended);
    return;
  }
  $("rh-what").textContent = `${named(answer.promotion)}: show clock from ${answer.at} ` +
    `(${answer.timezone})` + (answer.speed > 1 ? ` at ${answer.speed}× speed` : "") +
    ` · started by ${answer.by} · log ${answer.db}`;
  const link = $("rh-open", HTMLAnchorElement);
  link.href = consoleUrl(answer.port);
  link.textContent = `Open the rehearsal's console (${link.host})`;
}

function fillMoments(moments) {
  state.moments = moments;
  const options = moments.map((m, i) => {
    const option = el("option", "", `${m.label} — from ${m.at}`);
    option.value = String(i);
    return option;
  });
  const other = el("option", "", "Another date and time…");
  other.value = "";
  $("rh-moment").replaceChildren(...options, other);
  const promotions = [...new Set(moments.map((m) => m.promotion))];
  $("rh-promotion").replaceChildren(...promotions.map((p) => {
    const option = el("option", "", named(p));
    option.value = p;
    return option;
  }));
  pickMoment();
}

function pickMoment() {
  const moment = state.moments[Number($("rh-moment", HTMLSelectElement).value)];
  if ($("rh-moment", HTMLSelectElement).value === "" || moment === undefined) return;
  $("rh-promotion", HTMLSelectElement).value = moment.promotion;
  $("rh-at", HTMLInputElement).value = moment.at;
}

async function load() {
  const answer = await ask("GET", "/rehearsal");
  if (answer.available === false || answer.error) {
    $("rh-form").hidden = true;
    $("rh-unavailable").hidden = false;
    $("rh-unavailable").textContent = answer.message ?? answer.error?.message
      ?? "Rehearsals are not available here.";
    return;
  }
  state.loaded = true;
  fillMoments(answer.moments);
  renderRunning(answer);
}

async function start() {
  const body = {promotion: $("rh-promotion", HTMLSelectElement).value,
    at: $("rh-at", HTMLInputElement).value.trim(),
    speed: Number($("rh-speed", HTMLSelectElement).value)};
  const box = $("rh-ack");
  showAnswer(box, "pending", "Starting the rehearsal…");
  $("rh-start", HTMLButtonElement).disabled = true;
  const answer = await ask("POST", "/rehearsal/start", body);
  $("rh-start", HTMLButtonElement).disabled = false;
  if (!answer.ok) {
    showAnswer(box, "error", "Refused", answer.error.message);
    return;
  }
  showAnswer(box, "ok", "Rehearsal started",
    "Open its console below: log in there with your own name and password.");
  renderRunning(answer);
}

async function stop() {
  const answer = await ask("POST", "/rehearsal/stop", {});
  const box = $("rh-ack");
  if (!answer.ok) {
    showAnswer(box, "error", "Refused", answer.error.message);
    return;
  }
  showAnswer(box, "ok", "Rehearsal stopped", "Its log is kept beside the live one.");
  renderRunning(answer);
}

$("rh-speed").replaceChildren(...SPEEDS.map((s) => {
  const option = el("option", "", s === 1 ? "Real time" : `${s}× faster`);
  option.value = String(s);
  return option;
}));
$("rh-moment").addEventListener("change", pickMoment);
$("rh-start").addEventListener("click", start);
$("rh-stop").addEventListener("click", stop);
for (const tab of document.querySelectorAll('[data-tab="rehearse"]')) {
  tab.addEventListener("click", () => state.loaded || load());
}
panel({name: "rehearse", render: () => {}});
load();
