// @ts-check
/* The /screens table's rules without a DOM: what state a screen is in, what its row says,
 * which rows a filter keeps and in what order, and whether a new report changes a row at all.
 * Pure, so tests/screens_grid.test.js checks them under node and the page stays a thin
 * writer of rows (screens.js). */

import {humanize} from "./words.js";

/** A screen's state as a technician sorts the floor: what needs a visit comes first. */
export const KINDS = /** @type {const} */ (["offline", "waiting", "online", "revoked"]);
/** @typedef {typeof KINDS[number]} Kind */

export const KIND_WORDS = {offline: "Offline", waiting: "Waiting for authorisation",
  online: "Online", revoked: "Revoked"};
/** The filter buttons' words ("Waiting 3"). */
export const KIND_BUTTONS = {all: "All", offline: "Offline", waiting: "Waiting",
  online: "Online", revoked: "Revoked"};

/** Sort orders offered on the page: [value, words]. */
export const SORTS = /** @type {const} */ ([["trouble", "Offline first"], ["name", "Name"],
  ["group", "Group"], ["playlist", "Playlist"]]);

export const NO_PLAYLIST = "\u0000none";  // the playlist filter's "No playlist" (never a name)

/**
 * @typedef {{screen: string, name: string, group: string, status: string, online?: boolean,
 *   since_ms?: number | null, playlists: string[], takeover?: string | null, scene?: string,
 *   fps?: number, dropped_frames?: number, clock_offset_ms?: number,
 *   screenshot_ms?: number | null,
 *   media?: {missing: string[], done_bytes: number, total_bytes: number} | null}} Row
 * @typedef {{kind: Kind | "all", group: string, playlist: string, text: string}} Filter
 */

/** @param {Row} row @returns {Kind} */
export function kindOf(row) {
  if (row.status === "revoked") return "revoked";
  if (row.status === "pending") return "waiting";
  return row.online ? "online" : "offline";
}

/** The row's state in a few words; `clock(ms)` gives the time of day ("21:04").
 * @param {Row} row @param {(ms: number) => string} clock */
export function stateText(row, clock) {
  const kind = kindOf(row);
  if (kind === "waiting" && !row.online) return "Waiting for authorisation, not connected";
  if (kind !== "offline") return KIND_WORDS[kind];
  return typeof row.since_ms === "number" ? `Offline since ${clock(row.since_ms)}`
    : "Never connected";
}

/** What the screen plays: its takeover, else its playlists and the scene it reports. */
export function playingText(/** @type {Row} */ row) {
  if (row.takeover) return `Taken over: ${humanize(row.takeover)}`;
  const lists = row.playlists.length ? row.playlists.join(", ") : "No playlist";
  return row.online && row.scene ? `${lists} · ${humanize(row.scene)}` : lists;
}

/** "Waiting for media: a.mp4, b.jpg — 40 %", or "" when nothing is missing. */
export function mediaText(/** @type {Row["media"]} */ media) {
  if (!media || !Array.isArray(media.missing) || media.missing.length === 0) return "";
  const names = media.missing.length > 3
    ? `${media.missing.slice(0, 2).join(", ")} and ${media.missing.length - 2} more`
    : media.missing.join(", ");
  const total = media.total_bytes;
  const share = total > 0 ? Math.min(100, Math.floor((media.done_bytes / total) * 100)) : 0;
  return `Waiting for media: ${names} \u2014 ${share}\u00a0%`;
}

/** Whether `row` is kept by `filter` (the search looks at the name and where it hangs). */
export function matches(/** @type {Row} */ row, /** @type {Filter} */ filter) {
  if (filter.kind !== "all" && kindOf(row) !== filter.kind) return false;
  if (filter.group && row.group !== filter.group) return false;
  if (filter.playlist === NO_PLAYLIST) {
    if (row.playlists.length) return false;
  } else if (filter.playlist && !row.playlists.includes(filter.playlist)) {
    return false;
  }
  const text = filter.text.trim().toLowerCase();
  return !text || row.screen.toLowerCase().includes(text)
    || row.name.toLowerCase().includes(text);
}

const byName = (/** @type {Row} */ a, /** @type {Row} */ b) =>
  a.screen.localeCompare(b.screen, "en", {numeric: true});

/** A comparator for one of SORTS; the name breaks ties so the order never flickers.
 * @param {string} sort @returns {(a: Row, b: Row) => number} */
export function comparator(sort) {
  const rank = (/** @type {Row} */ r) => KINDS.indexOf(kindOf(r));
  const first = (/** @type {Row} */ r) => r.playlists[0] ?? "\uffff";
  switch (sort) {
    case "name": return byName;
    case "group": return (a, b) => a.group.localeCompare(b.group) || byName(a, b);
    case "playlist": return (a, b) => first(a).localeCompare(first(b)) || byName(a, b);
    default: return (a, b) => rank(a) - rank(b) || byName(a, b);
  }
}

/** Everything a row or the detail shows of a screen: equal strings, nothing to write. */
export function signature(/** @type {Row} */ row) {
  return JSON.stringify([row.name, row.group, row.status, row.online, row.since_ms,
    row.playlists, row.takeover, row.scene, row.fps, row.dropped_frames, row.clock_offset_ms,
    row.screenshot_ms, row.media ?? null]);
}

/** How many screens are in each state, for the filter's buttons. */
export function counts(/** @type {Iterable<Row>} */ rows) {
  const tally = {all: 0, offline: 0, waiting: 0, online: 0, revoked: 0};
  for (const row of rows) {
    tally.all += 1;
    tally[kindOf(row)] += 1;
  }
  return tally;
}

/** "Moved 50 screens to bar." / the one summary of a selection's command. */
export function screensWord(/** @type {number} */ n) {
  return `${n} screen${n === 1 ? "" : "s"}`;
}
