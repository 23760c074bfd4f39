// @ts-check
/* The words of an answer, for every panel's answer box and the recent list: what was sent and
 * what the controller said, with no event class name, no id, no full card number and no epoch
 * (a card is "card ending 4567", a moment is the venue's time of day). No DOM, so node's tests
 * read it. */

import {humanize} from "./words.js";

/** Epoch milliseconds -> "17:55:04" at the venue (the console's clock). @typedef {(ms: number)
 * => string} TimeOfDay */

const CARD_IN_TEXT = /\b(card(?: number)?) (\d{1,16})(\d{4})\b/gi;
const EPOCH_MS = /\b1\d{12}\b/g;  // 2001 to 2286
const IS_EPOCH_MS = /^1\d{12}$/;
const ID_FIELDS = new Set(["entry", "id", "command_id", "cue_id", "feed_heat", "session"]);

/** "No member is registered with card 1234567." -> "... with card ending 4567."; a 13-digit
 * epoch -> the venue's time of day.
 * @param {string} text @param {TimeOfDay} timeOfDay */
export function plain(text, timeOfDay) {
  return text.replace(CARD_IN_TEXT, "$1 ending $3")
    .replace(EPOCH_MS, (ms) => timeOfDay(Number(ms)));
}

/** "1234567" -> "card ending 4567". @param {string} card */
export function cardEnding(card) {
  return `card ending ${card.replace(/\D/g, "").slice(-4)}`;
}

/** 60000 -> "60 000": digits grouped the way the floor prints them. @param {number} n */
export function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");
}

/** One field's value in words, or "" to leave it out.
 * @param {string} key @param {unknown} value @param {TimeOfDay} timeOfDay @returns {string} */
function valueWords(key, value, timeOfDay) {
  if (value === null || value === undefined || value === "") return "";
  if (Array.isArray(value)) {
    return value.map((v) => valueWords(key, v, timeOfDay)).filter(Boolean).join(", ");
  }
  if (typeof value === "object") return key === "signature" ? "signed" : "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (/card/.test(key) && /^\d[\d \-]*$/.test(String(value))) return cardEnding(String(value));
  if (typeof value === "number") {
    return IS_EPOCH_MS.test(String(value)) ? timeOfDay(value) : grouped(value);
  }
  return plain(String(value), timeOfDay);
}

/** What was sent, in words: "stage qualifying, card ending 4567, score 60 000". Ids (an
 * entry, a command, a cue) and objects other than a signature are left out: the MC chose
 * them, and the answer names them as people do.
 * @param {Record<string, unknown>} payload @param {TimeOfDay} timeOfDay */
export function payloadWords(payload, timeOfDay) {
  return Object.entries(payload ?? {})
    .filter(([key]) => !ID_FIELDS.has(key) && !key.endsWith("_id"))
    .map(([key, value]) => {
      const words = valueWords(key, value, timeOfDay);
      if (!words) return "";
      const label = humanize(key.replace(/_ms$/, "")).toLowerCase();
      if (typeof value === "boolean") return value ? label : `${label}: no`;
      return words.startsWith("card ending") ? words : `${label} ${words}`;
    })
    .filter(Boolean)
    .join(", ");
}

/** The warnings a command's events carry for the MC (a stage closed with unsigned scores).
 * @param {{events?: {data?: Record<string, unknown>}[]}} ack */
export function warningsOf(ack) {
  return (ack.events ?? []).map((e) => e.data?.warning)
    .filter((w) => typeof w === "string");
}
