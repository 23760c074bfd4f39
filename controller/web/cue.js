// @ts-check
/* The PA announcer's cue page: the cue to read now in large type, its claim countdown, what is
 * coming up and, folded away, what was read. One link to /cue (link.js).
 *
 * Two views make one timeline: `cues` (every promotion's cues with an id, a topic, a due time
 * `at_ms` and whether an announcer acknowledged it) and `cues:super9` (the lines after the
 * latest Super 9 spin; no id or time, so each revision is one entry, stamped when it arrives).
 * A cue shows once it is due, so reminders need no timers on the controller; of a topic only
 * the latest due cue is worth reading, so an unread earlier one is withdrawn ("30 seconds left"
 * goes when "Time is up" comes). Only the text read aloud is shown: a cue's notes (rules, what
 * the dealer does) are the operator's. "Done" on a `cues` entry sends `cue.acknowledge` (one
 * command_id per press, resent unchanged until answered); Super 9 lines have no
 * acknowledgement on the controller and are marked read on this device. A new cue chimes, once
 * sound was enabled with a tap (browsers play no sound before one).
 */

import {$, el, humanize, Link, loadJson, saveJson, setConnection, showGate, takeKey}
  from "./link.js";
const KEY_STORE = "showrunner.cue.key";
const SUPER9_STORE = "showrunner.cue.super9";
const CUES = "cues";
const SUPER9 = "cues:super9";
const DRAW = "draw:wildcard";
const EARLIER_SIZE = 8;
const UPCOMING_SIZE = 4;
const SUPER9_KEEP = 12;
const URGENT_S = 10;
const TICK_MS = 250;
const TEXT_MIN_PX = 14;
const TEXT_MAX_PX = 68;
const GONE = new Set(["already_acknowledged", "unknown_cue"]); // read elsewhere, or withdrawn

const PROMOTIONS = {wildcard: "Wild Card", super9: "Super 9", slots: "Slots PAYOFF",
  poker: "Heads-Up Poker", roulette: "Roulette"};
const KINDS = [
  [/-start$/, () => "Draw starting"],
  [/-winner$/, () => "Winner"],
  [/-remind-(\d+)$/, (m) => `Reminder, ${m[1]} s left`],
  [/-time-up$/, () => "Time is up"],
  [/-claimed$/, () => "Claimed"],
  [/-redraw$/, () => "Redraw"],
  [/-stand-in-/, () => "Stand-in"],
  [/-seats-\d+$/, () => "Seat draw"],
  [/-seat-passed-\d+$/, () => "Semi seat passed on"],
];

/** @type {Link} the link to the controller, made by start() */
let link;

const state = {
  super9: loadJson(SUPER9_STORE, []),
  acknowledged: new Set(), // answered presses, before the view catches up
  current: null,
  sending: null,
  note: null, // {cueId, kind, text}
  shape: "",
  audio: null, // an AudioContext, once a tap enabled sound
  chimed: null, // the cue id last chimed for
};

// -- the timeline ----------------------------------------------------------------------------

function promotionOf(id) {
  const prefix = id.split("-")[0];
  return PROMOTIONS[prefix] ?? humanize(prefix);
}

function kindOf(id) {
  for (const [pattern, label] of KINDS) {
    const match = id.match(pattern);
    if (match) return label(match);
  }
  return "Cue";
}

/** Every cue of both views worth showing: {id, topic, promotion, kind, lines, at,
 * acknowledged, local}. An unread cue is left out once a later one of its topic is due. */
function timeline(now) {
  const server = (link.doc(CUES)?.cues ?? []).map((c) => ({
    id: c.id, topic: c.topic ?? c.id, promotion: promotionOf(c.id), kind: kindOf(c.id),
    lines: [c.text], at: c.at_ms, acknowledged: c.acknowledged || state.acknowledged.has(c.id),
    local: false,
  }));
  const super9 = state.super9.map((s) => ({
    id: s.id, topic: SUPER9, promotion: "Super 9", kind: s.session ?? "Spin", lines: s.lines,
    at: s.at, acknowledged: s.acknowledged, local: true,
  }));
  const all = [...server, ...super9];
  const latest = new Map(); // topic -> the latest due cue
  for (const cue of all) {
    if (cue.at <= now && !(latest.get(cue.topic)?.at > cue.at)) latest.set(cue.topic, cue);
  }
  return all.filter((c) => c.acknowledged || c.at > now || latest.get(c.topic) === c);
}

/** A new `cues:super9` revision with lines is a new entry (kept for reloads). */
function takeSuper9() {
  const view = link.views.get(SUPER9);
  const lines = view?.doc.lines ?? [];
  const id = `super9-${view?.revision}`;
  if (lines.length === 0 || state.super9.some((s) => s.id === id)) return;
  state.super9 = [...state.super9, {
    id, session: view.doc.session, lines, at: link.now(), acknowledged: false,
  }].slice(-SUPER9_KEEP);
  saveJson(SUPER9_STORE, state.super9);
}

/** The claim deadline a Wild Card cue of the running claim counts down to, else null. */
function deadlineOf(cue) {
  const round = cue?.id.match(/^wildcard-r(\d+)-/);
  const draw = link.doc(DRAW);
  if (!round || !draw || draw.phase !== "claim" || !draw.claim_deadline) return null;
  return Number(round[1]) === draw.round ? draw.claim_deadline : null;
}

// -- rendering --------------------------------------------------------------------------------

function clockText(ms) {
  return link.timeOfDay(ms);
}

/** 83 400 ms -> "1:24" (whole seconds, rounded up, never below zero). */
function span(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Build what changed shape (a cue came due, was read, arrived); times are set by tick(). */
function render() {
  const now = link.now();
  const all = timeline(now);
  const due = all.filter((c) => c.at <= now);
  const upcoming = all.filter((c) => c.at > now).sort((a, b) => a.at - b.at);
  const toRead = due.filter((c) => !c.acknowledged).sort((a, b) => b.at - a.at);
  const current = toRead[0] ?? null;
  const earlier = due.filter((c) => c !== current).sort((a, b) => b.at - a.at)
    .slice(0, EARLIER_SIZE);
  const shape = JSON.stringify([current, toRead.length, upcoming.map((c) => c.id),
    earlier.map((c) => [c.id, c.acknowledged]), state.sending, state.note]);
  if (shape !== state.shape) {
    state.shape = shape;
    state.current = current;
    if (state.note && state.note.cueId !== current?.id) state.note = null;
    renderNow(current, toRead.length - 1, upcoming[0]);
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
  const done = $("done");
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
  for (const node of document.querySelectorAll(".when")) {
    const left = span(Number(node.dataset.at) - now);
    node.textContent = node.dataset.mode === "in" ? `in ${left}` : left;
  }
  const deadline = deadlineOf(state.current);
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
    state.super9 = state.super9.map((s) => (s.id === cue.id ? {...s, acknowledged: true} : s));
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
  state.audio = state.audio ?? new AudioContext();
  state.audio.resume();
  const button = $("sound");
  button.dataset.state = "on";
  button.textContent = "Sound on";
  button.setAttribute("aria-pressed", "true");
  beep(0);
}

/** Two short rising tones when a new cue comes to read (once per cue). */
function chime(cueId) {
  state.chimed = cueId;
  $("now").dataset.chimes = String(Number($("now").dataset.chimes ?? 0) + 1);
  if (state.audio === null) return;
  beep(0);
  beep(0.18);
}

function beep(delay) {
  const ctx = state.audio;
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
