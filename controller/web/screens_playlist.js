// @ts-check
/* A group's playlists in words for /screens, without a DOM (tests/screens_playlist.test.js):
 * each scene by its title and main settings, the hours a playlist plays (its windows, the
 * "dayparts"), what a group plays now and what it goes back to when a playlist comes off.
 * The data is the `group_playlists` query's (controller/screens/groups.py). */

import {humanize} from "./words.js";

/**
 * @typedef {{scene: string, duration_ms?: number, params: Record<string, any>,
 *   transition?: string, reads: string | null}} Item
 * @typedef {{days: number[], from_min: number, to_min: number}} Window
 * @typedef {{kind: string, name: string, scene: string}} Now
 * @typedef {{name: string, file: string, priority: number, timezone: string,
 *   windows: Window[], loop: boolean, transition: string, items: Item[],
 *   fallback: Item | null, text: string, state: string, next_ms: number | null, then: Now,
 *   last: Change | null}} Playlist
 * @typedef {{what: string, name: string, by: string, at_ms: number, screens: string[]}} Change
 *   (`screens`: the single screens it was on, none for the group)
 * @typedef {{now: Now, changes_at_ms: number | null, playlists: Playlist[]}} Program
 * @typedef {Program & {screens: string[]}} Own  screens holding the same playlists
 * @typedef {Program & {group: string, screens: number, own: Own[], changes: Change[]}} Group
 */

/** Each scene of the catalogue (showrunner/contract/scenes.py) by the name the floor knows. */
export const SCENES = {
  announcement: "Announcement", attract: "Attract loop",
  claim_countdown: "Wild Card claim countdown", jackpot_ticker: "Jackpot ticker",
  leaderboard: "Leaderboard", live_heat: "Live heat", next_event: "Coming up",
  prize_table: "Prize table", roulette_countdown: "Roulette betting countdown",
  seating_chart: "Seating chart", super9_board: "Super 9 board", video: "Video",
  wildcard_draw: "Wild Card draw",
};

const PROMOTIONS = {slots: "Slots PAYOFF", roulette: "Roulette Spin-Off",
  poker: "Heads-Up Poker Showdown", super9: "Super 9", wildcard: "Wild Card"};
const DATA = {pools: "prize pool"};
const DAYS = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays",
  "Sundays"];
const WAYS_IN = {cut: "cuts in", crossfade: "fades in", slide: "slides in"};

/** "Leaderboard" for a scene the page knows, else its name in words. */
export function sceneTitle(/** @type {string} */ scene) {
  return SCENES[scene] ?? humanize(scene);
}

/** 30 000 -> "30 s", 90 000 -> "1 min 30 s", 3 600 000 -> "1 h", 2 500 -> "2.5 s". */
export function durationWords(/** @type {number} */ ms) {
  const hours = Math.floor(ms / 3600000);
  const minutes = Math.floor((ms % 3600000) / 60000);
  const seconds = (ms % 60000) / 1000;
  return [hours && `${hours}\u00a0h`, minutes && `${minutes}\u00a0min`,
    seconds && `${seconds}\u00a0s`].filter(Boolean).join(" ") || "0\u00a0s";
}

const secondsWords = (/** @type {number} */ s) => durationWords(Math.round(s * 1000));
const quoted = (/** @type {string} */ text) =>
  `\u201c${text.length > 40 ? `${text.slice(0, 39)}\u2026` : text}\u201d`;
const listed = (/** @type {string[]} */ words) => words.length < 2 ? words.join("")
  : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;

/** What each parameter of a scene says, in words; null: nothing worth saying. */
const SETTINGS = {
  view: () => null,  // said by the data the scene reads (`reads`)
  audio: () => null,  // always off: the floor's screens are muted
  rows_per_page: (v) => v === null ? null : `${v} rows a page`,
  page_seconds: (v) => `a new page every ${secondsWords(v)}`,
  max_rows: (v) => `at most ${v} rows`,
  score_label: (v) => v ? `scores marked ${quoted(v)}` : null,
  empty_text: (v) => `${quoted(v)} while empty`,
  title: (v) => v ? `titled ${quoted(v)}` : null,
  body: (v) => v ? `saying ${quoted(v.replace(/\s+/g, " "))}` : null,
  caption: (v) => quoted(v),
  images: (v) => v.length ? `pictures ${listed(v)}` : "the house pictures",
  seconds: (v) => `${secondsWords(v)} a picture`,
  claim_seconds: (v) => `${secondsWords(v)} to claim`,
  betting_seconds: (v) => `${secondsWords(v)} of betting`,
  roll_seconds: (v) => `rolls for ${secondsWords(v)}`,
  recent: (v) => `the last ${v} numbers`,
  heat: (v) => v ? `heat ${v}` : null,
  stage: (v) => v ? `stage ${v}` : null,
  timezone: (v) => `times in ${v}`,
  media: (v) => `plays ${v}`,
  fit: (v) => v === "contain" ? "all of it, bars at the edges" : "fills the screen",
  loop: (v) => v ? null : "stops on its last frame",
  start: (v) => v === "clock" ? "in step on every screen" : null,
};

/** The live data a scene shows: "Slots PAYOFF" (a leaderboard's own), "Slots PAYOFF prize
 * pool" (a jackpot ticker showing the pools), "" when it is the scene's own or none. */
export function dataWords(/** @type {string} */ scene, /** @type {string | null} */ view) {
  if (!view) return "";
  const [kind, owner] = view.includes(":") ? view.split(":", 2) : [view, ""];
  if (!owner) return kind === scene ? "" : humanize(kind);
  const promotion = PROMOTIONS[owner] ?? humanize(owner);
  if (sceneTitle(scene).includes(promotion)) return "";  // the Super 9 board's own
  const own = scene.includes(kind.replace(/s$/, ""));  // prizes: the prize table's own
  return own ? promotion : `${promotion} ${DATA[kind] ?? kind.replace(/_/g, " ")}`;
}

/** A scene in words: {title, settings, time}, e.g. {"Leaderboard · Slots PAYOFF",
 * "12 rows a page", "30 s, fades in"}. @param {Item} item */
export function sceneWords(item) {
  const data = dataWords(item.scene, item.reads);
  const settings = Object.entries(item.params ?? {}).map(([key, value]) =>
    key in SETTINGS ? SETTINGS[key](value) : `${humanize(key)}: ${String(value)}`)
    .filter(Boolean);
  const time = item.duration_ms === undefined ? ""
    : [durationWords(item.duration_ms), item.transition && WAYS_IN[item.transition]]
      .filter(Boolean).join(", ");
  return {title: data ? `${sceneTitle(item.scene)} \u00b7 ${data}` : sceneTitle(item.scene),
    settings: settings.join(", "), time};
}

/** [4, 5] -> "Fridays and Saturdays", every day -> "Every day". */
export function daysWords(/** @type {number[]} */ days) {
  const key = [...days].sort().join("");
  if (key === "0123456") return "Every day";
  if (key === "01234") return "Weekdays";
  if (key === "56") return "Weekends";
  return listed(days.map((d) => DAYS[d]));
}

/** 1200 -> "20:00"; 1560 -> "02:00 the next morning"; 1440 -> "midnight". */
export function clockWords(/** @type {number} */ minutes) {
  const hhmm = (/** @type {number} */ m) =>
    `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  if (minutes === 1440) return "midnight";
  return minutes > 1440 ? `${hhmm(minutes - 1440)} the next morning` : hhmm(minutes);
}

/** When a playlist plays, one line a window: "Fridays and Saturdays, 20:00 to 02:00 the
 * next morning"; ["Always"] without windows. A playlist on another zone than the venue's
 * says whose clock it follows. @param {Playlist} playlist @param {string | undefined} venue */
export function hoursWords(playlist, venue) {
  const zone = venue && playlist.timezone !== venue ? ` (${playlist.timezone} time)` : "";
  const once = playlist.loop ? "" : ", its scenes once";
  if (!playlist.windows.length) return [`Always${once}`];
  return playlist.windows.map((w) =>
    `${daysWords(w.days)}, ${clockWords(w.from_min)} to ${clockWords(w.to_min)}${zone}${once}`);
}

/** "house", "house's fallback: Attract loop", "The default scene (Attract loop)", "Taken
 * over: Announcement". @param {Now} now */
export function nowWords(now) {
  if (now.kind === "takeover") return `Taken over: ${sceneTitle(now.scene)}`;
  if (now.kind === "playlist") return now.name;
  if (now.kind === "fallback") return `${now.name}'s fallback: ${sceneTitle(now.scene)}`;
  return `The default scene (${sceneTitle(now.scene)})`;
}

/** What a playlist's card says of it now; `moment(ms)` words a time at the venue.
 * @param {Playlist} playlist @param {Now} now @param {(ms: number) => string} moment */
export function stateWords(playlist, now, moment) {
  switch (playlist.state) {
    case "playing": return "Playing now";
    case "outranked": return now.kind === "takeover"
      ? `In its hours, but the group is taken over (${sceneTitle(now.scene)})`
      : `In its hours, but ${now.name} plays before it`;
    case "starting": return "Starts at the end of the scene playing now";
    case "finished": return "Has played its scenes: it waits to be put on again";
    default: return playlist.next_ms === null ? "Not playing"
      : `Not in its hours: next from ${moment(playlist.next_ms)}`;
  }
}

/** What taking a playlist off leaves the group playing, as the end of a sentence.
 * @param {Now} then */
export function thenWords(then) {
  if (then.kind === "playlist") return `goes on with ${then.name}`;
  if (then.kind === "fallback") return `shows ${then.name}'s fallback (${sceneTitle(then.scene)})`;
  return `goes back to the default scene (${sceneTitle(then.scene)})`;
}

/** "screen stage-2", "screens lobby-1, lobby-2 and lobby-3", "screens lobby-1, lobby-2 and
 * 48 more". @param {string[]} screens */
export function screensWords(screens) {
  if (screens.length === 1) return `screen ${screens[0]}`;
  return `screens ${screens.length > 3 ? listed([...screens.slice(0, 2),
    `${screens.length - 2} more`]) : listed(screens)}`;
}

/** A change in the group's list: "Sam put house on", "Sam changed house", "Sam took own
 * off screen stage-2". @param {Change} change */
export function changeWords(change) {
  const who = change.by || "Someone";
  const where = change.screens?.length ? ` ${screensWords(change.screens)}` : "";
  if (change.what === "off") return `${who} took ${change.name} off${where}`;
  if (change.what === "edited") {
    return `${who} changed ${change.name}${where ? ` on${where}` : ""}`;
  }
  return `${who} put ${change.name} on${where}`;
}

/** A problem of a playlist's check beside its editor: "Line 3, column 13: unknown scene …".
 * @param {{line: number, column: number, message: string}} problem */
export function problemWords(problem) {
  return `Line ${problem.line}, column ${problem.column}: ${problem.message}`;
}

/** A moment at the venue: "20:00" today, "Saturday 20:00" this week, else with its date
 * ("Saturday 12 December 20:00"). `zone`: the venue's (the `venue` view), else this device's.
 * @param {number} ms @param {number} now @param {string | undefined} zone */
export function momentWords(ms, now, zone) {
  const at = (/** @type {Intl.DateTimeFormatOptions} */ options) => {
    try {
      return new Intl.DateTimeFormat("en-GB", zone ? {...options, timeZone: zone} : options);
    } catch {
      return new Intl.DateTimeFormat("en-GB", options);  // a zone this browser does not know
    }
  };
  const day = at({year: "numeric", month: "2-digit", day: "2-digit"});
  const time = at({hour: "2-digit", minute: "2-digit", hourCycle: "h23"}).format(ms);
  if (day.format(ms) === day.format(now)) return time;
  const far = Math.abs(ms - now) > 6 * 86400000;
  const date = at({weekday: "long", ...(far ? {day: "numeric", month: "long"} : {})});
  return `${date.format(ms)} ${time}`;
}
