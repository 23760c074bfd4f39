// @ts-check
/* The PA announcer's cue page: the cue to read now in large type, its claim countdown, what is
 * coming up and, folded away, what was read. One link to /cue (link.js); which cues, in which
 * order, is cue_timeline.js (a cue shows once it is due, so reminders need no timers on the
 * controller). Only the text read aloud is shown: a cue's notes (rules, what
 * the dealer does) are the operator's. "Done" on a `cues` entry sends `cue.acknowledge` (one
 * command_id per press, resent unchanged until answered); Super 9 lines have no
 * acknowledgement on the controller and are marked read on this device. A new cue chimes, once
 * sound was enabled with a tap (browsers play no sound before one).
 */

import {$, el, Link, loadJson, saveJson, setConnection, showGate, takeKey} from "./link.js";
import {arrange, deadlineOf, markRead, SUPER9_TOPIC, timeline, withSuper9}
  from "./cue_timeline.js";
import {span} from "./words.js";

/** @typedef {import("./cue_timeline.js").Cue} Cue */
/** @typedef {import("./cue_timeline.js").Super9Entry} Super9Entry */
const KEY_STORE = "showrunner.cue.key";
const SUPER9_STORE = "showrunner.cue.super9";
const CUES = "cues";
const SUPER9 = SUPER9_TOPIC;
const DRAW = "draw:wildcard";
const EARLIER_SIZE = 8;
const UPCOMING_SIZE = 4;
const SUPER9_KEEP = 12;
const URGENT_S = 10;
const TICK_MS = 250;
const TEXT_MIN_PX = 14;
const TEXT_MAX_PX = 68;
const GONE = new Set(["already_acknowledged", "unknown_cue"]); // read elsewhere, or withdrawn

/** @type {Link} the link to the controller, made by start() */
let link;

const state = {
  /** @type {Super9Entry[]} */
  super9: loadJson(SUPER9_STORE, []),
  /** @type {Set<string>} answered presses, before the view catches up */
  acknowledged: new Set(),
  /** @type {Cue | null} the cue to read now */
  current: null,
  /** @type {string | null} the cue whose Done press is unanswered */
  sending: null,
  /** @type {{cueId: string, kind: string, text: string} | null} */
  note: null,
  shape: "",
  /** @type {AudioContext | null} once a tap enabled sound */
  audio: null,
  /** @type {string | null} the cue id last chimed for */
  chimed: null,
};

/** The Super 9 entries the controller keeps no acknowledgement of: kept for reloads. */
function takeSuper9() {
  const entries = withSuper9(state.super9, link.views.get(SUPER9), link.now(), SUPER9_KEEP);
  if (entries === state.super9) return;
  state.super9 = entries;
  saveJson(SUPER9_STORE, state.super9);
}

// -- rendering --------------------------------------------------------------------------------

function clockText(ms) {
  return link.timeOfDay(ms);
}

/** Build what changed shape (a cue came due, was read, arrived); times are set by tick(). */
function render() {
  const now = link.now();
  const all = timeline(link.doc(CUES)?.cues ?? [], state.super9, state.acknowledged, now);
  const {current, waiting, upcoming, earlier} = arrange(all, now, EARLIER_SIZE);
  const shape = JSON.stringify([current, waiting, upcoming.map((c) => c.id),
    earlier.map((c) => [c.id, c.acknowledged]), state.sending, state.note]);
  if (shape !== state.shape) {
    state.shape = shape;
    state.current = current;
    if (state.note && state.note.cueId !== current?.id) state.note = null;
    renderNow(current, waiting, upcoming[0]);
    renderList($("upcoming"), upcoming.slice(0, UPCOMING_SIZE), "Nothing scheduled.", true);
    renderList($("earlier"), earlier, "Nothing read yet.", false);
    $("earlier-count").textContent = earlier.length ? `(${earlier.length})` : "";
    if (current && current.id !== state.chimed) chime(current.id);
    tick(now);
    fitText(); // once the button, the note and the countdown have taken their room
    return;
  }
  tick(now);
}

function renderNow(cue, waiting, next) {
  const now = $("now");
  now.dataset.state = cue ? "cue" : "idle";
  now.dataset.cue = cue ? cue.id : "";
  $("now-promo").textContent = cue ? cue.promotion : "All clear";
  $("now-kind").textContent = cue ? cue.kind : "";
  $("now-queue").hidden = waiting <= 0;
  $("now-queue").textContent = `+${waiting} more to read`;
  const text = cue ? cue.lines : ["Nothing to read right now."];
  $("now-text").replaceChildren(...text.map((line) => el("p", null, line)));
  const done = $("done", HTMLButtonElement);
  done.hidden = cue === null;
  done.disabled = state.sending !== null;
  done.textContent = state.sending ? "Sending…" : "Done · Acknowledge";
  const note = $("note");
  if (state.note) {
    note.hidden = false;
    note.dataset.kind = state.note.kind;
    note.textContent = state.note.text;
  } else if (!cue && next) {
    note.hidden = false;
    note.dataset.kind = "next";
    note.replaceChildren("Next cue in ", timeSpan(next.at, "until"));
  } else {
    note.hidden = true;
  }
}

/** The largest type (up to a size a stage monitor reads from afar) that shows the whole cue. */
function fitText() {
  const box = $("now-text");
  box.style.fontSize = "";
  if (state.current === null || box.clientHeight === 0) return;
  let size = Math.min(TEXT_MAX_PX, Math.max(TEXT_MIN_PX, Math.floor(window.innerWidth / 11)));
  box.style.fontSize = `${size}px`;
  while (size > TEXT_MIN_PX && box.scrollHeight > box.clientHeight) {
    size -= 2;
    box.style.fontSize = `${size}px`;
  }
}

function timeSpan(at, mode) {
  const node = el("span", "when");
  node.dataset.at = at;
  node.dataset.mode = mode;
  return node;
}

function renderList(list, cues, empty, ahead) {
  if (cues.length === 0) {
    list.replaceChildren(el("li", "empty", empty));
    return;
  }
  list.replaceChildren(...cues.map((cue) => {
    const item = el("li", "cue-item");
    item.dataset.cue = cue.id;
    const head = el("div", "cue-head");
    head.append(el("span", "promo", cue.promotion), el("span", "cue-kind", cue.kind));
    if (ahead) {
      head.append(timeSpan(cue.at, "in"));
    } else {
      const status = cue.acknowledged ? "Read" : "Not read";
      item.dataset.status = status.toLowerCase().replace(" ", "-");
      head.append(el("span", "status", status), el("span", "at", clockText(cue.at).slice(0, 5)));
    }
    item.append(head, el("div", "cue-text", cue.lines.join(" ")));
    return item;
  }));
}

/** Every quarter second: the clock, the countdown and the "in 0:42" times. */
function tick(now) {
  if (link.offsetMs !== null) $("clock").textContent = clockText(now);
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll(".when"))) {
    const left = span(Number(node.dataset.at) - now);
    node.textContent = node.dataset.mode === "in" ? `in ${left}` : left;
  }
  const deadline = deadlineOf(state.current, link.doc(DRAW));
  const box = $("countdown");
  if (box.hidden !== (deadline === null)) {
    box.hidden = deadline === null;
    fitText();
  }
  if (deadline === null) return;
  const left = deadline - now;
  box.dataset.urgency = left <= 0 ? "over" : left <= URGENT_S * 1000 ? "urgent" : "running";
  $("countdown-time").textContent = span(left);
  $("countdown-label").textContent = left > 0 ? "to come to the stage" : "Time is up";
}

// -- the Done button --------------------------------------------------------------------------

async function onDone() {
  const cue = state.current;
  if (cue === null || state.sending !== null) return;
  if (cue.local) {
    state.super9 = markRead(state.super9, cue.id);
    saveJson(SUPER9_STORE, state.super9);
    render();
    return;
  }
  const answer = link.press("cue.acknowledge", {cue_id: cue.id}, () => {
    state.note = {cueId: cue.id, kind: "waiting",
      text: "Not confirmed yet: sending the same press again when the controller answers…"};
    render();
  });
  if (answer === null) return;
  state.sending = cue.id;
  render();
  const ack = await answer;
  state.sending = null;
  state.note = null;
  if (ack.ok || GONE.has(ack.error.code)) {
    state.acknowledged.add(cue.id);
  } else {
    state.note = {cueId: cue.id, kind: "error", text: ack.error.message};
  }
  render();
}

// -- the chime --------------------------------------------------------------------------------

/** Browsers play no sound before a tap on the page: the first tap makes the AudioContext. */
function enableSound() {
  const audio = state.audio ?? new AudioContext();
  state.audio = audio;
  audio.resume();
  const button = $("sound");
  button.dataset.state = "on";
  button.textContent = "Sound on";
  button.setAttribute("aria-pressed", "true");
  beep(audio, 0);
}

/** Two short rising tones when a new cue comes to read (once per cue). */
function chime(cueId) {
  state.chimed = cueId;
  $("now").dataset.chimes = String(Number($("now").dataset.chimes ?? 0) + 1);
  if (state.audio === null) return;
  beep(state.audio, 0);
  beep(state.audio, 0.18);
}

/** @param {AudioContext} ctx @param {number} delay seconds */
function beep(ctx, delay) {
  const start = ctx.currentTime + delay;
  const tone = ctx.createOscillator();
  const gain = ctx.createGain();
  tone.frequency.value = delay ? 1320 : 880;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.4, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
  tone.connect(gain).connect(ctx.destination);
  tone.start(start);
  tone.stop(start + 0.17);
}

// -- key, connection, start -------------------------------------------------------------------

function start() {
  const key = takeKey(KEY_STORE);
  if (!key) {
    setConnection("refused", "No key");
    showGate("No key", "Open this page with the cue link from the technician: " +
      `${location.origin}/cue?key=…`);
    return;
  }
  $("done").addEventListener("click", onDone);
  $("sound").addEventListener("click", enableSound);
  link = new Link("/cue", key, {
    online: async () => {
      $("gate").hidden = true;
      $("desk").hidden = false;
    },
    views: (changed) => {
      if (changed.has(SUPER9)) takeSuper9();
      render();
    },
    refused: (message) => {
      sessionStorage.removeItem(KEY_STORE);
      showGate("Key refused", `The controller refused this page's key: ${message} ` +
        "Ask the technician for a new cue link.");
    },
  });
  setInterval(render, TICK_MS);
  window.addEventListener("resize", fitText);
}

start();
