// @ts-check
/* The ehost kiosk (docs/ehost.md): a member swipes their Rewards card, sees their public name
 * and their Wild Card tickets (slots rules 18.1-18.2) and activates them with one tap while the
 * entry bins are open (rules 18.3, 33.3, 36); the receipt says when, and their ticket numbers
 * once the pool is frozen.
 *
 * The page holds no data until its kiosk key connects on /kiosk. A technician opens
 * /kiosk#key=... once: the fragment never reaches the server, the key is kept in localStorage
 * and taken out of the address bar. The card reader is a keyboard wedge: it types the card
 * fast, then Enter, anywhere on the page; keys typed at a human's pace are ignored (the
 * on-screen keypad is for typing). After IDLE_MS without a touch or a key, or at the next
 * swipe, the page forgets the member. Every word shown is the controller's or this page's.
 */

import {Follower} from "./leader.js";
import {$, el} from "./link.js";

const KEY_STORE = "showrunner.kiosk.key";
const IDLE_MS = 20000;
const WEDGE_MS_PER_KEY = 50;  // a reader's line comes faster than this a key; a person's not
const WEDGE_PAUSE_MS = 400;  // a longer pause starts a new line
const ACK_TIMEOUT_MS = 8000;
const MAX_TYPED = 20;
const HELLO_MS = 30000;
const SECTIONS = ["setup", "refused", "idle", "keypad", "waiting", "member", "receipt",
  "message"];
const NOT_ANSWERED = "The kiosk could not reach the draw just now. Please swipe again.";

/** A member's entry as the controller sends it (controller/promotions/wildcard/entries.py).
 * @typedef {{name: string, tickets: number, cardholder_tickets: number,
 *   participant_tickets: number, state: string, activated: boolean, can_activate: boolean,
 *   activated_at: string | null, bins_open: string, bins_close: string,
 *   ticket_numbers: number[], pool_digest: string | null}} Entry */

/** @typedef {{ok: true, entry: Entry} | {ok: false, error: {code: string, message: string}}}
 * Reply */

const state = {
  kiosk: "",
  /** @type {{bins_open: string, bins_close: string, state: string} | null} */
  draw: null,
  /** @type {string | null} the card shown now; forgotten with the member */
  card: null,
  /** @type {ReturnType<typeof setTimeout> | null} */
  idle: null,
  typed: "",
  /** the wedge's keys so far, when the first and the last came */
  wedge: "",
  wedgeFrom: 0,
  wedgeAt: 0,
};

/** @type {import("socket.io-client").Socket | null} */
let socket = null;
/** @type {Follower | null} the kiosk opened again at the controller that leads (leader.js) */
let follower = null;

// -- words ----------------------------------------------------------------------------------

/** @param {number} n @param {string} one @param {string} many */
function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function hoursText() {
  const draw = state.draw;
  if (draw === null) return "";
  if (draw.state === "bins_not_open") return `The entry bins open at ${draw.bins_open}.`;
  if (draw.state === "open") return `The entry bins are open until ${draw.bins_close}.`;
  return `The entry bins closed at ${draw.bins_close}.`;
}

/** "3f9a 21c0": the start of the pool's fingerprint, as the draw screen shows it whole. */
function fingerprint(digest) {
  return `${digest.slice(0, 4)} ${digest.slice(4, 8)}`;
}

// -- what is shown --------------------------------------------------------------------------

/** @param {string} name */
function show(name) {
  for (const section of SECTIONS) $(section).hidden = section !== name;
  $("done").hidden = !["member", "receipt", "message"].includes(name);
}

/** Back to the card slot: the member is forgotten. */
function forget() {
  state.card = null;
  state.typed = "";
  stopIdle();
  for (const id of ["member-name", "tickets", "receipt-title", "receipt-name", "receipt-when",
    "receipt-numbers", "receipt-pool", "message-text", "member-answer"]) {
    $(id).replaceChildren();
  }
  $("hours").textContent = hoursText();
  show(socket?.connected ? "idle" : "waiting");
}

function stopIdle() {
  if (state.idle !== null) clearTimeout(state.idle);
  state.idle = null;
}

/** A member (or the keypad) is on screen: forget them after IDLE_MS without a touch. */
function touched() {
  if (state.card === null && $("keypad").hidden && $("message").hidden) return;
  stopIdle();
  state.idle = setTimeout(forget, IDLE_MS);
}

/** @param {string} text */
function message(text) {
  $("message-text").textContent = text;
  show("message");
  touched();
}

/** @param {Entry} entry */
function showMember(entry) {
  if (entry.activated) {
    showReceipt(entry);
    return;
  }
  $("member-name").textContent = entry.name;
  const lines = [["As a Rewards cardholder", count(entry.cardholder_tickets, "ticket",
    "tickets")]];
  if (entry.participant_tickets > 0) {
    lines.push(["For taking part in the tournament", count(entry.participant_tickets,
      "ticket", "tickets")]);
  }
  lines.push(["Your Wild Card tickets", count(entry.tickets, "ticket", "tickets")]);
  $("tickets").replaceChildren(...lines.flatMap(([label, value], i) => {
    const total = i === lines.length - 1 ? "total" : null;
    return [el("dt", total, label), el("dd", total, value)];
  }));
  const button = $("activate", HTMLButtonElement);
  button.hidden = !entry.can_activate;
  button.disabled = false;
  button.textContent = entry.tickets === 1 ? "Activate my ticket"
    : `Activate my ${entry.tickets} tickets`;
  const notice = $("member-notice");
  notice.hidden = entry.can_activate;
  notice.textContent = entry.state === "bins_not_open"
    ? `The entry bins open at ${entry.bins_open}. Come back then to activate your tickets.`
    : `The entry bins closed at ${entry.bins_close}. Tickets can no longer be activated.`;
  $("member-answer").hidden = true;
  show("member");
  touched();
}

/** @param {Entry} entry */
function showReceipt(entry) {
  $("receipt-title").textContent = entry.tickets === 1 ? "Your ticket is in the draw"
    : `Your ${entry.tickets} tickets are in the draw`;
  $("receipt-name").textContent = entry.name;
  $("receipt-when").textContent = `Activated at ${entry.activated_at ?? ""} today.`;
  const numbers = entry.ticket_numbers;
  if (numbers.length) {
    $("receipt-numbers").textContent = `Your ticket ${numbers.length === 1 ? "number is"
      : "numbers are"} ${numbers.join(", ")}.`;
    $("receipt-pool").textContent = entry.pool_digest ? "The draw screen shows the pool's " +
      `fingerprint; it begins ${fingerprint(entry.pool_digest)}. Kiosk: ${state.kiosk}.`
      : `Kiosk: ${state.kiosk}.`;
  } else {
    $("receipt-numbers").textContent = "Your tickets are numbered when the entry bins close " +
      `at ${entry.bins_close}.`;
    $("receipt-pool").textContent = "The draw screen then shows the pool's fingerprint. " +
      `Kiosk: ${state.kiosk}.`;
  }
  show("receipt");
  touched();
}

// -- talking to the controller --------------------------------------------------------------

/** @param {string} event @param {object} data @returns {Promise<any>} */
async function ask(event, data) {
  if (socket === null || !socket.connected) return null;
  try {
    const answer = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, data);
    if (answer?.error?.code === "not_leader") follower?.check();
    return answer;
  } catch {
    return null;
  }
}

/** A card came in (a swipe, or the keypad's OK): whoever was shown is forgotten first.
 * @param {string} card */
async function lookUp(card) {
  forget();
  state.card = card;
  show("waiting");
  /** @type {Reply | null} */
  const reply = await ask("lookup", {card});
  if (state.card !== card) return;  // another swipe came meanwhile
  if (reply === null) message(NOT_ANSWERED);
  else if (reply.ok) showMember(reply.entry);
  else message(reply.error.message);
}

async function activate() {
  const card = state.card;
  if (card === null) return;
  const button = $("activate", HTMLButtonElement);
  button.disabled = true;
  /** @type {Reply | null} */
  const reply = await ask("activate", {card});
  if (state.card !== card) return;
  button.disabled = false;
  if (reply?.ok) {
    showReceipt(reply.entry);
    return;
  }
  const answer = $("member-answer");
  answer.hidden = false;
  answer.textContent = reply === null ? NOT_ANSWERED : reply.error.message;
  touched();
}

/** @param {string} sentence */
function refused(sentence) {
  localStorage.removeItem(KEY_STORE);
  forget();
  $("refused-text").textContent = sentence;
  show("refused");
  setConnection("refused", "Not set up");
}

/** @param {string} kind @param {string} text */
function setConnection(kind, text) {
  const conn = $("conn");
  conn.dataset.state = kind;
  conn.textContent = text;
}

/** The kiosk's name and the bins' hours now (asked again every HELLO_MS: the bins open and
 * close while the kiosk waits). */
async function greet() {
  const hello = await ask("hello", {});
  if (!hello?.ok) return;
  state.kiosk = hello.kiosk;
  state.draw = hello.draw;
  $("kiosk-name").textContent = hello.kiosk;
  $("hours").textContent = hoursText();
  if (!$("waiting").hidden && state.card === null) show("idle");
}

/** @param {string} key */
function connect(key) {
  const link = io("/kiosk", {auth: {key}, transports: ["websocket"]});
  socket = link;
  follower = new Follower((address) => `${address}${location.pathname}${location.search}` +
    `#key=${encodeURIComponent(key)}`, (text) => setConnection("reconnecting", text));
  link.on("connect", () => {
    setConnection("online", "Online");
    follower?.online();
    greet();
  });
  link.on("refused", (data) => refused(data?.message ?? "This key was refused."));
  link.on("disconnect", () => {
    if (!$("refused").hidden) return;
    setConnection("reconnecting", "Reconnecting…");
    follower?.offline();
  });
  link.on("connect_error", (err) => {
    if (link.active) {
      setConnection("reconnecting", "Reconnecting…");
      follower?.offline();
      return;
    }
    refused(err.message);
  });
}

/** The key from #key=..., kept and taken out of the address bar; else the one kept before. */
function takeKey() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get("key");
  if (given) {
    localStorage.setItem(KEY_STORE, given);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return localStorage.getItem(KEY_STORE);
}

// -- the card reader and the keypad ---------------------------------------------------------

/** The card number in what a reader typed: track 2 (";1000001=...?"), track 1
 * ("%B1000001^NAME^...?") or plain digits; null for anything else. @param {string} typed */
export function cardIn(typed) {
  const found = /%B(\d{6,20})\^/.exec(typed) ?? /;(\d{6,20})[=?]/.exec(typed)
    ?? /^(\d{6,20})$/.exec(typed);
  return found ? found[1] : null;
}

/** @param {KeyboardEvent} event */
function onKey(event) {
  touched();
  if (!$("refused").hidden || !$("setup").hidden) return;
  const now = performance.now();
  const keypad = !$("keypad").hidden;
  if (event.key === "Enter") {
    const fast = now - state.wedgeFrom <= WEDGE_MS_PER_KEY * (state.wedge.length + 1);
    const typed = fast ? state.wedge : "";
    state.wedge = "";
    const card = cardIn(typed);
    if (card !== null) {
      event.preventDefault();
      lookUp(card);
    } else if (keypad) {
      keypadOk();
    } else if (typed.length >= 6) {  // a reader's line with no card number in it
      message("The card could not be read. Please swipe it again.");
    }
    return;
  }
  if (event.key.length !== 1) return;
  if (now - state.wedgeAt > WEDGE_PAUSE_MS) {  // a new line
    state.wedge = "";
    state.wedgeFrom = now;
  }
  state.wedge = (state.wedge + event.key).slice(-120);
  state.wedgeAt = now;
  if (keypad && /^\d$/.test(event.key)) press(event.key);
}

/** @param {string} digit */
function press(digit) {
  if (state.typed.length < MAX_TYPED) state.typed += digit;
  $("typed").textContent = state.typed;
  touched();
}

function keypadOk() {
  const card = cardIn(state.typed);
  if (card === null) {
    $("typed").textContent = state.typed ? "6 to 20 digits, please" : "";
    state.typed = "";
    return;
  }
  lookUp(card);
}

function keypadButton(text, label, onClick, className = "key") {
  const button = el("button", className, text);
  button.type = "button";
  button.setAttribute("aria-label", label);
  button.addEventListener("click", onClick);
  return button;
}

function buildKeypad() {
  const keys = [..."123456789"].map((d) => keypadButton(d, d, () => press(d)));
  keys.push(keypadButton("Clear", "Clear", () => {
    state.typed = "";
    $("typed").textContent = "";
    touched();
  }, "key clear"));
  keys.push(keypadButton("0", "0", () => press("0")));
  keys.push(keypadButton("OK", "OK", keypadOk, "key ok"));
  $("keys").replaceChildren(...keys);
}

// -- start ----------------------------------------------------------------------------------

function start() {
  $("logo").addEventListener("error", () => { $("logo").hidden = true; });
  buildKeypad();
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", touched);
  $("activate").addEventListener("click", activate);
  $("done").addEventListener("click", forget);
  $("open-keypad").addEventListener("click", () => {
    state.typed = "";
    $("typed").textContent = "";
    show("keypad");
    touched();
  });
  $("close-keypad").addEventListener("click", forget);
  const key = takeKey();
  if (key === null) {
    show("setup");
    setConnection("refused", "Not set up");
    return;
  }
  show("waiting");
  connect(key);
  setInterval(greet, HELLO_MS);
}

start();
