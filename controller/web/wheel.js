// @ts-check
/* The wheel's reader on the Super 9 and Roulette panels (docs/wheel.md): one line saying
 * whether the wheel at the promotion's table is being read ("reading since 19:02", green) or
 * not ("offline since 19:02, type the numbers", amber); the notes under it (the wheel showed a
 * no spin, a number the MC typed that the wheel read otherwise); and the banner of a reading
 * held for the MC (super9 rule 18.3) with Apply and Discard. The keypad always stays: the
 * reader only saves typing (super9 rule 29).
 */

import {$} from "./link.js";
import {act, link, may} from "./console.js";

const DEVICES = "ops:devices";
const WHEELS = "ops:wheels";

/** "19:02": as the page's bar clock tells the time (the venue's zone, else the tablet's own),
 * so the line and the clock above it never disagree.
 * @param {number} ms */
function hhmm(ms) {
  return link().timeOfDay(ms).slice(0, 5);
}

/** The table whose wheel serves `promotion`, with its row of ops:wheels.
 * @param {"super9" | "roulette"} promotion */
function tableOf(promotion) {
  return (link().doc(WHEELS)?.tables ?? []).find((t) => t.serves.includes(promotion)) ?? null;
}

/** The status line's words and colour for the reader at `table`.
 * @param {string} table @returns {{text: string, kind: "ok" | "warn"}} */
export function wheelLine(table) {
  const device = (link().doc(DEVICES)?.devices ?? []).find((d) => d.name === table);
  if (!device) return {text: `wheel ${table}: no reader set up, type the numbers`, kind: "warn"};
  const since = hhmm(device.since_ms);
  if (device.state === "reading") return {text: `wheel ${table}: reading since ${since}`,
    kind: "ok"};
  if (device.state === "port_closed") {
    return {text: `wheel ${table}: not reading the wheel since ${since}, type the numbers`,
      kind: "warn"};
  }
  return {text: `wheel ${table}: offline since ${since}, type the numbers`, kind: "warn"};
}

/** "Spin 3" from the controller's "spin 3"; a heat's "Heat 1 spin 2" stays as it is.
 * @param {string} spin */
function spinName(spin) {
  return spin.charAt(0).toUpperCase() + spin.slice(1);
}

/** The notes under the line: the wheel's own no spin (the MC's No spin stays the MC's), and
 * each number typed for a spin that the wheel, read late, says was another.
 * @param {any} table @param {"super9" | "roulette"} promotion
 * @returns {{text: string, kind: "warn" | "alert" | "ok"}[]} */
export function wheelNotes(table, promotion) {
  const notes = [];
  if (table.armed && table.armed_by === "wheel") {
    const rule = promotion === "roulette"
      ? "press No spin to give the players 30 s more (rule 25)"
      : "press No spin to count it (rule 18)";
    notes.push({text: `The wheel showed a no spin at ${hhmm(table.armed_ms)}. If the dealer ` +
      `called it, ${rule}.`, kind: "warn"});
  }
  const late = (table.late ?? []).filter((r) => r.promotion === promotion);
  for (const r of late.filter((row) => !row.agrees)) {
    const had = r.recorded === null ? "was played without a number"
      : r.typed ? `was typed as ${r.recorded}` : `was recorded as ${r.recorded}`;
    notes.push({text: `${spinName(r.spin)} ${had}, but the wheel read ${r.number} ` +
      `(${hhmm(r.at_ms)}). Check which is right.`, kind: "alert"});
  }
  const agreed = late.filter((row) => row.agrees && row.typed).length;
  if (agreed) {
    notes.push({text: `The wheel's late readings agree with ${agreed} typed ` +
      `number${agreed > 1 ? "s" : ""}.`, kind: "ok"});
  }
  return notes;
}

/** Fill `<prefix>-wheel` (the line), `<prefix>-wheel-notes` and `<prefix>-held` (the
 * banner) for `promotion`.
 * @param {string} prefix @param {"super9" | "roulette"} promotion */
export function renderWheel(prefix, promotion) {
  const table = tableOf(promotion);
  const line = $(`${prefix}-wheel`);
  const notesBox = $(`${prefix}-wheel-notes`);
  line.hidden = table === null;
  const held = table?.held?.promotion === promotion ? table.held : null;
  $(`${prefix}-held`).hidden = held === null || !may("wheel.apply_held");
  const notes = table === null ? [] : wheelNotes(table, promotion);
  notesBox.hidden = notes.length === 0;
  notesBox.replaceChildren(...notes.map(({text, kind}) => {
    const item = document.createElement("li");
    item.textContent = text;
    item.dataset.kind = kind;
    return item;
  }));
  if (table === null) return;
  const {text, kind} = wheelLine(table.table);
  line.textContent = text;
  line.dataset.kind = kind;
  if (held === null) return;
  $(`${prefix}-held-text`).textContent = held.why === "ball_unseen"
    ? `The wheel shows ${held.number}, but the reader did not see that ball spun (it ` +
      `started or was stopped mid-game): apply it only if ${held.number} is this spin's ` +
      "number."
    : `The wheel read ${held.number} again after the no spin; the ball may have returned ` +
      "to the previous number (rule 18.3).";
  $(`${prefix}-held-apply`).textContent = `Apply ${held.number}`;
  const apply = $(`${prefix}-held-apply`);
  apply.dataset.table = table.table;
  apply.dataset.number = String(held.number);
}

/** Wire the banner's buttons; `box` shows the controller's answer.
 * @param {string} prefix @param {() => HTMLElement} box */
export function wireHeld(prefix, box) {
  const apply = $(`${prefix}-held-apply`);
  const reason = $(`${prefix}-held-reason`, HTMLInputElement);
  apply.addEventListener("click", () => {
    const {table, number} = apply.dataset;
    act({box: box(), label: "Apply held number", type: "wheel.apply_held", payload: {table},
      values: `table ${table} · ${number}`, done: () => `${number} is applied as the spin.`});
  });
  $(`${prefix}-held-discard`).addEventListener("click", async () => {
    const {table, number} = apply.dataset;
    const why = reason.value.trim();
    const ack = await act({box: box(), label: "Discard held number",
      type: "wheel.discard_held", payload: {table, reason: why},
      values: `table ${table} · ${number} · reason: ${why || "none"}`,
      done: () => `${number} is discarded; no number recorded.`});
    if (ack?.ok) reason.value = "";
  });
}
