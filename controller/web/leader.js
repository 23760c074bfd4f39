// @ts-check
/* Pages follow the controller that leads the show (several controllers on one PostgreSQL
 * log: docs/operations.md). A page opened on a standby, or answered `not_leader`, goes to the
 * leader; a page whose controller stays unreachable goes to another controller of the log.
 * Each controller says who leads and which controllers there are at GET /leader; the page
 * keeps that list, because when its own controller dies there is nobody left to ask.
 *
 * The page is opened again at the other address by `reopen(address)`: with its key in the
 * address (key pages), or through that controller's login page with a second token of the
 * person's session (/login/handoff, /login/resume): the login cookie is each host's own. */

const CONTROLLERS = "controllers";
const HANDOFF = "handoff";
const MOVE_AFTER_MS = 5000;  // unreachable this long: a lease (3 s) has run out by then

/** @typedef {{leading: boolean, leader: string, controllers: string[]}} Leadership */

/** The controllers of this log as last heard (this page's origin's list), or none. */
function known() {
  try {
    const list = JSON.parse(sessionStorage.getItem(CONTROLLERS) ?? "[]");
    return Array.isArray(list) ? list.filter((a) => typeof a === "string") : [];
  } catch {
    return [];
  }
}

/** The same page at `address`, for a page of a logged-in person: through that controller's
 * login page, which resumes the session with the kept handoff token.
 * @param {string} address */
export function reopenLoggedIn(address) {
  const token = sessionStorage.getItem(HANDOFF);
  const next = `?next=${encodeURIComponent(location.pathname)}`;
  return `${address}/login${next}${token ? `#resume=${encodeURIComponent(token)}` : ""}`;
}

/** A second token of this page's login session, kept for a move (once per page session). */
export async function keepHandoff() {
  if (sessionStorage.getItem(HANDOFF)) return;
  try {
    const response = await fetch("/login/handoff", {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: "{}"});
    if (response.ok) sessionStorage.setItem(HANDOFF, (await response.json()).token);
  } catch {
    // offline: asked again at the next connect
  }
}

export class Follower {
  /** @param {(address: string) => string} reopen the page's address at another controller
   * @param {(text: string) => void} say what the page shows while it moves */
  constructor(reopen, say) {
    this.reopen = reopen;
    this.say = say;
    /** @type {number | null} */
    this.lostSince = null;
    setInterval(() => this.maybeMove(), 1000);
  }

  /** Ask this controller who leads; go there if it is another. */
  async check() {
    /** @type {Leadership} */
    let answer;
    try {
      const response = await fetch("/leader", {cache: "no-store"});
      if (!response.ok) return;
      answer = await response.json();
    } catch {
      return;
    }
    if (answer.controllers.length) {
      sessionStorage.setItem(CONTROLLERS, JSON.stringify(answer.controllers));
    }
    if (!answer.leading && answer.leader) this.moveTo(answer.leader);
  }

  online() {
    this.lostSince = null;
    this.check();
  }

  offline() {
    this.lostSince ??= Date.now();
  }

  /** Unreachable for MOVE_AFTER_MS: on to the next controller of the log, if there is one. */
  maybeMove() {
    if (this.lostSince === null || Date.now() - this.lostSince < MOVE_AFTER_MS) return;
    const controllers = known();
    const here = controllers.indexOf(location.origin);
    const others = controllers.filter((a) => a !== location.origin);
    if (!others.length) return;
    this.moveTo(controllers[(here + 1) % controllers.length] ?? others[0]);
  }

  /** @param {string} address */
  moveTo(address) {
    let origin;
    try {
      origin = new URL(address).origin;
    } catch {
      return;  // not an address
    }
    if (origin === location.origin) return;
    this.say(`Switching to ${new URL(origin).host}…`);
    this.lostSince = null;
    location.assign(this.reopen(origin));
  }
}
