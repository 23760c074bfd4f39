// @ts-check
/* The Super 9 panel: the game picked by its advertised time, the live board, a 0-36 keypad in
 * the wheel's colours, No spin, Undo with a reason, the SUPER 9 call confirmed, and a game
 * nobody can win closed with a reason. The wheel's reader line and a reading held after a no
 * spin (rule 18.3) come from wheel.js.
 */

import {$, el} from "./link.js";
import {act, confirm, count, button, may, panel, link} from "./console.js";
import {askSignature} from "./signature.js";
import {renderWheel, wireHeld} from "./wheel.js";
import {span} from "./words.js";  // the next game may be days off: "opens in 2 days 4 h"
const BOARD = "board:super9";
const SCHEDULE = "schedule:super9";

/** A number of the wheel in the board view, in the colour the controller gives it.
 * @typedef {{number: number, colour: string, order: number | null}} BoardNumber */

const state = {
  /** @type {{id: string, label: string, starts_at: number} | null} the next game to start */
  next: null,
  /** @type {Map<number, string>} number -> its colour, from the board view */
  colours: new Map(),
  keypad: "",  // the numbers the keypad was built for
};
const box = () => $("s9-ack");

/** @param {number} n */
function colourOf(n) {
  return state.colours.get(n) ?? "";
}

const STATUS = {
  idle: "No game running.",
  playing: "Game on: enter each number the ball lands on.",
  super9: "SUPER 9 called: check the winning ticket, then confirm.",
  won: "Won: the prize is paid.",
  closed: "Closed with no winner: the jackpot carries over.",
};

function render() {
  const board = link().doc(BOARD);
  const status = board?.status ?? "idle";
  const live = status === "playing" || status === "super9";
  $("s9-status").textContent = board?.session
    ? `${board.session} — ${STATUS[status]}` : STATUS[status];
  $("s9-sessions-box").hidden = live;
  $("s9-play").hidden = status !== "playing";
  $("s9-confirm-box").hidden = status !== "super9";
  $("s9-close-box").hidden = !live;
  $("s9-change-box").hidden = !may("super9.change_numbers");
  renderSessions();
  renderBoard(board);
  renderWheel("s9", "super9");
}

/** The next game to start, by its advertised time; the later ones only listed. The button
 * is kept and its words updated, so a tick never swaps it from under a finger; it opens at
 * the advertised time (rule 4: the controller refuses an earlier start), so after a win the
 * next day's game is on show, not on offer. */
function renderSessions() {
  const [next, ...later] = link().doc(SCHEDULE)?.events ?? [];
  state.next = next ?? null;
  $("s9-start").hidden = next === undefined;
  $("s9-no-session").hidden = next !== undefined;
  if (next === undefined) return;
  const left = next.starts_at - link().now();
  $("s9-start-label").textContent = `Start the ${next.label} game`;
  $("s9-start", HTMLButtonElement).disabled = left > 0;
  $("s9-start-detail").textContent = left > 0 ? `opens in ${span(left)}` : "due now";
  $("s9-later").textContent = later.length ? `Then: ${later.map((s) => s.label).join(", ")}`
    : "";
}

function renderBoard(board) {
  buildKeypad(board?.numbers ?? []);
  /** @type {number[]} */
  const called = board?.called ?? [];
  $("s9-last").textContent = board?.last
    ? `${board.last.number} ${board.last.colour}${board.last.repeat ? " (repeat)" : ""}`
    : "—";
  $("s9-last").dataset.colour = board?.last?.colour ?? "";
  $("s9-counts").textContent = board?.status && board.status !== "idle"
    ? `${count(board.spins, "spin")} · ${count(board.no_spins, "no spin")} · counted ` +
      `${board.counted_label}` +
      ` · playing for the ${board.playing_for} (${board.prize})`
    : board?.message ?? "";
  $("s9-called").replaceChildren(...(called.length ? called.map((n) => {
    const ball = el("span", "ball", String(n));
    ball.dataset.colour = colourOf(n);
    return ball;
  }) : [el("span", "muted", "No numbers called yet.")]));
  const need = (board?.need ?? []).filter((r) => r.tickets > 0)
    .map((r) => `${r.tickets} ticket${r.tickets === 1 ? "" : "s"} need ${r.more} more`);
  const winners = (board?.winners ?? [])
    .map((w) => `${w.name}${w.share ? ` (${w.share})` : ""}`);
  $("s9-need").textContent = winners.length ? `Winners: ${winners.join(", ")}`
    : need.join(" · ");
  for (const key of $("s9-keypad").querySelectorAll("button")) {
    key.classList.toggle("called", called.includes(Number(key.dataset.number)));
  }
}

function startSession(s) {
  act({box: box(), label: "Start game", type: "super9.start_session",
    payload: {session: s.id}, values: `the ${s.label} game`,
    done: () => `The ${s.label} game has started.`});
}

function spin(n) {
  act({box: box(), label: "Spin", type: "super9.spin", payload: {number: n},
    values: `${n} ${colourOf(n)}`, done: () => `${n} ${colourOf(n)} is on the board.`});
}

function noSpin() {
  act({box: box(), label: "No spin", type: "super9.no_spin", payload: {},
    done: () => "No spin: no number recorded."});
}

function undo() {
  const reason = $("s9-undo-reason", HTMLInputElement).value.trim();
  act({box: box(), label: "Undo last number", type: "super9.undo_spin", payload: {reason},
    values: `reason: ${reason || "none"}`, done: (ack) => {
      const n = ack.ok ? ack.events.find((e) => e.type === "Super9SpinUndone")?.data?.number : null;
      return typeof n === "number" ? `${n} ${colourOf(n)} is off the board.`
        : "The last number is off the board.";
    }})
    .then((ack) => { if (ack?.ok) $("s9-undo-reason", HTMLInputElement).value = ""; });
}

async function confirmWin() {
  const ok = await confirm("Confirm the SUPER 9 and pay the prize?",
    "Check the winning ticket first. The prize cannot be taken back.", "Yes, confirm");
  if (!ok) return;
  act({box: box(), label: "Confirm SUPER 9", type: "super9.confirm_win", payload: {},
    done: () => "Confirmed: the winners are on the board."});
}

async function closeSession() {
  const reason = $("s9-close-reason", HTMLInputElement).value.trim();
  const ok = await confirm("Close this game with no winner?",
    `Reason: ${reason || "none given"}. The game cannot be reopened.`, "Yes, close it");
  if (!ok) return;
  act({box: box(), label: "Close game", type: "super9.close_session", payload: {reason},
    values: `reason: ${reason || "none"}`, done: () => "The game is closed."});
}

/** The 0-36 keys in the wheel's colours, as the board view has them (a game in play lists
 * them); built again only when they change, so a render never swaps a key under a finger.
 * @param {BoardNumber[]} numbers */
function buildKeypad(numbers) {
  const shape = JSON.stringify(numbers.map((n) => [n.number, n.colour]));
  if (shape === state.keypad || numbers.length === 0) return;
  state.keypad = shape;
  state.colours = new Map(numbers.map((n) => [n.number, n.colour]));
  $("s9-keypad").replaceChildren(...numbers.map(({number: n, colour}) => {
    const key = button(String(n), "key", () => spin(n));
    key.dataset.number = String(n);
    key.dataset.colour = colour;
    key.setAttribute("aria-label", `${n} ${colour}`);
    return key;
  }));
}

/** Rule 23: a ticket's new numbers, signed off by the Promotion Director on the pad. The
 * numbers are sent as typed (any separators); the controller says what is wrong with them. */
async function changeNumbers() {
  const ticket = $("s9-change-ticket", HTMLInputElement).value.trim();
  const typed = $("s9-change-numbers", HTMLInputElement).value;
  const numbers = (typed.match(/\d+/g) ?? []).map(Number);
  const director = $("s9-change-director", HTMLInputElement).value.trim();
  const signature = await askSignature({title: `Ticket ${ticket}: new numbers`,
    prompt: `${director || "Promotion Director"}: sign off ticket ${ticket}'s new numbers ` +
      `${numbers.join(", ")} (rule 23).`});
  if (signature === null) return;
  const ack = await act({box: box(), label: "Change numbers", type: "super9.change_numbers",
    payload: {ticket, numbers, director, signature},
    values: `ticket ${ticket} · ${numbers.join(" ")} · signed off by ${director}`,
    done: () => `Ticket ${ticket} now plays ${numbers.join(", ")}, signed off by ${director}.`});
  if (ack?.ok) {
    for (const id of ["s9-change-ticket", "s9-change-numbers"]) {
      $(id, HTMLInputElement).value = "";
    }
  }
}

wireHeld("s9", box);
$("s9-change").addEventListener("click", changeNumbers);
$("s9-start").addEventListener("click", () => state.next && startSession(state.next));
$("s9-no-spin").addEventListener("click", noSpin);
$("s9-undo").addEventListener("click", undo);
$("s9-confirm").addEventListener("click", confirmWin);
$("s9-close").addEventListener("click", closeSession);
panel({name: "super9", render, ticks: true});
