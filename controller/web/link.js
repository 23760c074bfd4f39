// @ts-check
/* What the controller's pages share: the key, one Socket.IO link, views by revision, the
 * controller clock, and presses that are applied once.
 *
 * A page makes `new Link(namespace, key, handlers)`. On every (re)connect the link syncs
 * by revision (it keeps a view only if its revision is at least the one held), resends a press
 * that was never answered with the SAME command_id (so the controller applies it once), and
 * samples the clock NTP-style. Nothing here decides a rule: pages show the server's sentences.
 */

import {Follower, keepHandoff, reopenLoggedIn} from "./leader.js";

const ACK_TIMEOUT_MS = 8000;
const CLOCK_SAMPLES = 5;
const CLOCK_RESAMPLE_MS = 60000;
const REHEARSAL = "rehearsal";
const LOG_HEALTH = "ops:log";  // operators' pages only (controller/realtime/log_health.py)
const VENUE = "venue";  // the venue's IANA zone (controller/domain/venue.py)
const STEP_BACK_MS = 2000;  // real ms: a correction back by more is a clock set again

/**
 * The page's element with this id, of the kind asked for (any element by default). The ids are
 * the page's own, so a missing one is a mistake in the page, said at once.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{new (): T, prototype: T}} [kind]
 * @returns {T}
 */
export function $(id, kind) {
  const node = document.getElementById(id);
  if (node === null || (kind !== undefined && !(node instanceof kind))) {
    throw new Error(`The page has no ${kind?.name ?? "element"} #${id}.`);
  }
  return /** @type {T} */ (node);
}

/**
 * A DOM element with a class and text; everything is set through textContent, never HTML.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string | null} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The venue's zone as the page's link last heard it (undefined before): every time of day a
 * page prints is the venue's, whatever zone this device is set to.
 * @type {string | undefined} */
let venueZone;

/** "17:55:04": the time of day at the venue (the `venue` view's zone, else this device's),
 * for the clock in a page's bar and every time a page prints.
 * @param {number} ms */
export function timeOfDay(ms) {
  const options = {hour12: false};
  try {
    return new Date(ms).toLocaleTimeString("en-GB", venueZone ? {...options, timeZone: venueZone}
      : options);
  } catch {
    return new Date(ms).toLocaleTimeString("en-GB", options);  // a zone it does not know
  }
}

/** The JSON kept under `key` this session, or `fallback`.
 * @template T @param {string} key @param {T} fallback @returns {T} */
export function loadJson(key, fallback) {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? "null") ?? fallback;
  } catch {
    return fallback;
  }
}

/** @param {string} key @param {unknown} value */
export function saveJson(key, value) {
  sessionStorage.setItem(key, JSON.stringify(value));
}

/** A page opened by a logged-in person connects with its session cookie, not a key. */
const SESSION = "session";

/** The key from ?key=..., kept (under `store`) for reloads and taken out of the address bar;
 * without one, the person's login session (SESSION).
 * @param {string} store */
export function takeKey(store) {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get("key");
  if (fromUrl) {
    sessionStorage.setItem(store, fromUrl);
    params.delete("key");
    const query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? `?${query}` : ""));
  }
  return sessionStorage.getItem(store) ?? SESSION;
}

/** The connection pill: data-state drives its colour, the text says it in words.
 * @param {string} kind @param {string} text */
export function setConnection(kind, text) {
  const conn = $("conn");
  conn.dataset.state = kind;
  conn.textContent = text;
}

/** The socket is lost and trying again: "Reconnecting…", unless a heartbeat has already
 * said "Offline" (the console's): each failed attempt must not turn that back, or the pill
 * flickers between the two while the controller is gone. */
function reconnecting() {
  if ($("conn").dataset.state !== "offline") setConnection("reconnecting", "Reconnecting…");
}

/** The page can do nothing now (no key, refused): its desk hides, the gate says why.
 * @param {string} title @param {string} text */
export function showGate(title, text) {
  $("desk").hidden = true;
  $("clock").classList.add("off");
  $("gate").hidden = false;
  $("gate-title").textContent = title;
  $("gate-text").textContent = text;
}

/** A rehearsal log (docs/rehearsal.md): a small banner on every page, so nobody takes it for
 * the live show. Only a rehearsal log publishes the `rehearsal` view.
 * @param {{started_local: string, timezone: string, speed: number} | undefined} doc */
function markRehearsal(doc) {
  let banner = document.getElementById("rehearsal");  // made here the first time
  if (!doc) {
    banner?.remove();
    return;
  }
  if (!banner) {
    banner = el("div", "rehearsal-banner");
    banner.id = "rehearsal";
    banner.setAttribute("role", "note");
    document.body.prepend(banner);
  }
  banner.textContent = `REHEARSAL · show clock from ${doc.started_local} (${doc.timezone})` +
    (doc.speed > 1 ? ` at ${doc.speed}× speed` : "") + " · not the live show";
}

/** The show log found damaged, or not checked, by the check of the whole log the controller
 * runs while it serves (`ops:log`, docs/operations.md): a banner at the top of every page of
 * the operators and technicians (the console, /screens), in the controller's own sentence that
 * names the event, for as long as it holds. Nothing while it checks or found the log intact.
 * @param {{state: string, sentence: string} | undefined} doc */
function markLogHealth(doc) {
  let banner = document.getElementById("log-health");  // made here the first time
  if (!doc || (doc.state !== "damaged" && doc.state !== "unchecked")) {
    banner?.remove();
    return;
  }
  if (!banner) {
    banner = el("div", "log-banner");
    banner.id = "log-health";
    banner.setAttribute("role", "alert");
    document.body.prepend(banner);
  }
  banner.dataset.state = doc.state;
  banner.textContent = doc.sentence;
}

/** A view as the controller sends it: its document is the controller's JSON, read as such.
 * @typedef {{name: string, revision: number, doc: any}} View */

/** The controller's answer to a command: its events (with the log's `seq` of the last, and
 * for some commands `said`, what was done in words), or the sentence saying why not (with, for
 * some refusals, the missing step `next`: docs/protocol.md).
 * @typedef {{ok: true, events: {type: string, data?: Record<string, unknown>}[], seq?: number,
 *   said?: string}
 *   | {ok: false, error: {code: string, message: string, next?: object}}} Ack */

/** @typedef {{online?: () => Promise<void>, views: (changed: Set<string>) => void,
 *   refused: (message: string) => void}} Handlers */

/** @typedef {{envelope: {type: string, payload: object, command_id: string},
 *   inFlight: boolean, resolve: (ack: Ack) => void, onWaiting?: () => void}} Pending */

/**
 * One connection. `handlers`: online() -> promise, awaited with the sync after each connect;
 * views(changedNames) after views arrive; refused(message) when the key is refused.
 */
export class Link {
  /** @param {string} namespace @param {string} key @param {Handlers} handlers */
  constructor(namespace, key, handlers) {
    this.handlers = handlers;
    /** @type {Map<string, View>} */
    this.views = new Map();
    /** @type {number | null} */
    this.offsetMs = null;
    /** @type {{local: number, server: number, rate: number} | null} the clock as last sampled */
    this.fix = null;
    /** @type {number | null} */
    this.lastNow = null;
    /** @type {Pending | null} */
    this.pending = null;
    const auth = key === SESSION ? {} : {key};
    const socket = io(namespace, {auth, transports: ["websocket"]});
    this.socket = socket;
    /** the page opened again at another controller of the log (leader.js) */
    this.follower = new Follower(key === SESSION ? reopenLoggedIn
      : (address) => `${address}${location.pathname}?key=${encodeURIComponent(key)}`,
    (text) => setConnection("reconnecting", text));
    socket.on("connect", async () => {
      this.onConnect();
      if (key === SESSION) await keepHandoff();  // before a move to the leader needs it
      if (socket.connected) this.follower.online();
    });
    socket.on("views", (message) => this.receive(message.views));
    socket.on("disconnect", (reason) => {
      reconnecting();
      this.follower.offline();
      if (reason === "io server disconnect") socket.connect();
    });
    socket.on("connect_error", (err) => {
      if (socket.active) {
        reconnecting();
        this.follower.offline();
        return;
      }
      if (key === SESSION) {
        location.assign(`/login?next=${location.pathname}`);  // logged out, expired, disabled
        return;
      }
      setConnection("refused", "Key refused");
      handlers.refused(err.message);
    });
    setInterval(() => this.connected && this.sampleClock(), CLOCK_RESAMPLE_MS);
  }

  get connected() {
    return this.socket.connected;
  }

  /** One event with its ack (the controller's answer is JSON).
   * @param {string} event @param {object} data @returns {Promise<any>} */
  call(event, data) {
    return this.socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, data);
  }

  async onConnect() {
    setConnection("online", "Online");
    const held = Object.fromEntries([...this.views].map(([name, v]) => [name, v.revision]));
    try {
      const [synced] = await Promise.all([
        this.call("sync", {revisions: held}),
        this.handlers.online?.(),
      ]);
      this.receive(synced.views);
    } catch {
      return; // disconnected again; the next connect starts over
    }
    this.transmit();
    this.sampleClock();
  }

  /** @param {View[]} views */
  receive(views) {
    const changed = new Set();
    for (const view of views) {
      const held = this.views.get(view.name);
      if (held === undefined || view.revision >= held.revision) {
        this.views.set(view.name, view);
        changed.add(view.name);
      }
    }
    if (changed.has(REHEARSAL)) markRehearsal(this.doc(REHEARSAL));
    if (changed.has(LOG_HEALTH)) markLogHealth(this.doc(LOG_HEALTH));
    if (changed.has(VENUE)) venueZone = this.doc(VENUE)?.timezone;
    if (changed.size) this.handlers.views(changed);
  }

  /** A view's document, or undefined before it arrives. @param {string} name */
  doc(name) {
    return this.views.get(name)?.doc;
  }

  /** Controller time in epoch ms (the local clock until the first sample). The show clock
   * may run `rate` times real time (a rehearsal's speed): between samples it is carried on
   * at that rate, and a correction of a few ms never makes it step back (a countdown must
   * not count up); a step back of seconds is a clock set again, and is followed. */
  now() {
    const local = Date.now();
    const fix = this.fix;
    const estimate = fix ? fix.server + (local - fix.local) * fix.rate : local;
    const last = this.lastNow;
    const rate = fix ? fix.rate : 1;
    if (last !== null && last > estimate && last - estimate <= STEP_BACK_MS * rate) return last;
    this.lastNow = estimate;
    return estimate;
  }

  /** The time of day at the venue (`timeOfDay`). @param {number} ms */
  timeOfDay(ms) {
    return timeOfDay(ms);
  }

  /** NTP-style: of a few round trips, trust the one with the least delay. */
  async sampleClock() {
    let best = Infinity;
    for (let i = 0; i < CLOCK_SAMPLES; i += 1) {
      const sent = Date.now();
      let reply;
      try {
        reply = await this.call("clock", {client_ms: sent});
      } catch {
        return;
      }
      const received = Date.now();
      const rtt = received - sent;
      if (rtt <= best) {
        best = rtt;
        const rate = reply.rate > 0 ? reply.rate : 1;
        this.fix = {local: sent + rtt / 2, server: reply.server_ms, rate};
        this.offsetMs = reply.server_ms + rtt / 2 - received;
      }
    }
  }

  /**
   * One press of a button: a promise of the command's ack, or null while another press is
   * unanswered. `onWaiting()` is called each time an attempt goes unconfirmed.
   * @param {string} type @param {object} payload @param {() => void} [onWaiting]
   * @returns {Promise<Ack> | null}
   */
  press(type, payload, onWaiting) {
    if (this.pending !== null) return null;
    return new Promise((resolve) => {
      this.pending = {
        envelope: {type, payload, command_id: crypto.randomUUID()},
        inFlight: false,
        resolve,
        onWaiting,
      };
      this.transmit();
    });
  }

  /** Send the pending press, or resend it with the same command_id; idle when offline. */
  async transmit() {
    const pending = this.pending;
    if (pending === null || pending.inFlight || !this.connected) return;
    pending.inFlight = true;
    let ack;
    try {
      ack = await this.call("command", pending.envelope);
    } catch {
      pending.inFlight = false;
      pending.onWaiting?.();
      if (this.connected) this.transmit();
      return;
    }
    this.pending = null;
    if (!ack.ok && ack.error.code === "not_leader") this.follower.check();
    pending.resolve(ack);
  }
}
