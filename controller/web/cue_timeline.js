// @ts-check
/* The cue page's timeline, with no DOM (tested by tests/cue_timeline.test.js): which cues are
 * worth showing, which one to read now, what is coming up and what was read.
 *
 * Two views make one timeline: `cues` (every promotion's cues with an id, a topic, a due time
 * `at_ms` and whether an announcer acknowledged it) and `cues:super9` (the lines after the
 * latest Super 9 spin; no id or time, so each revision is one entry, stamped when it arrives).
 * A cue shows once it is due; of a topic only the latest due cue is worth reading, so an unread
 * earlier one is withdrawn ("30 seconds left" goes when "Time is up" comes).
 */

import {humanize} from "./words.js";

/** A cue of the `cues` view.
 * @typedef {{id: string, text: string, at_ms: number, topic?: string,
 *   acknowledged?: boolean}} ServerCue */
/** A Super 9 entry, kept on this device: one per `cues:super9` revision with lines.
 * @typedef {{id: string, session?: string | null, lines: string[], at: number,
 *   acknowledged: boolean}} Super9Entry */
/** A cue as the page shows it; `local` ones are marked read on this device only.
 * @typedef {{id: string, topic: string, promotion: string, kind: string, lines: string[],
 *   at: number, acknowledged: boolean, local: boolean}} Cue */
/** @typedef {{current: Cue | null, waiting: number, upcoming: Cue[], earlier: Cue[]}} Arranged */

export const SUPER9_TOPIC = "cues:super9";

const PROMOTIONS = /** @type {Record<string, string>} */ ({wildcard: "Wild Card",
  super9: "Super 9", slots: "Slots PAYOFF", poker: "Heads-Up Poker", roulette: "Roulette"});
/** @type {[RegExp, (match: RegExpMatchArray) => string][]} */
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
  [/^prize-.+-\d+h$/, () => "Prize reminder"],
];

/** "wildcard-r1-winner" -> "Wild Card"; a prize's reminder is its promotion's
 * ("prize-roulette-final-1-48h" -> "Roulette"). @param {string} id */
export function promotionOf(id) {
  const [first, second = ""] = id.split("-");
  const prefix = first === "prize" && second ? second : first;
  return PROMOTIONS[prefix] ?? humanize(prefix);
}

/** "wildcard-r1-remind-30" -> "Reminder, 30 s left". @param {string} id */
export function kindOf(id) {
  for (const [pattern, label] of KINDS) {
    const match = id.match(pattern);
    if (match) return label(match);
  }
  return "Cue";
}

/**
 * Every cue of both views worth showing at `now`: an unread cue is left out once a later one
 * of its topic is due. `acknowledged`: the ids this page's presses were answered for, before
 * the view catches up.
 * @param {ServerCue[]} cues @param {Super9Entry[]} super9 @param {Set<string>} acknowledged
 * @param {number} now @returns {Cue[]}
 */
export function timeline(cues, super9, acknowledged, now) {
  /** @type {Cue[]} */
  const all = [
    ...cues.map((c) => ({
      id: c.id, topic: c.topic ?? c.id, promotion: promotionOf(c.id), kind: kindOf(c.id),
      lines: [c.text], at: c.at_ms, acknowledged: c.acknowledged === true || acknowledged.has(c.id),
      local: false,
    })),
    ...super9.map((s) => ({
      id: s.id, topic: SUPER9_TOPIC, promotion: "Super 9", kind: s.session ?? "Spin",
      lines: s.lines, at: s.at, acknowledged: s.acknowledged, local: true,
    })),
  ];
  /** @type {Map<string, Cue>} topic -> the latest due cue */
  const latest = new Map();
  for (const cue of all) {
    const held = latest.get(cue.topic);
    if (cue.at <= now && !(held !== undefined && held.at > cue.at)) latest.set(cue.topic, cue);
  }
  return all.filter((c) => c.acknowledged || c.at > now || latest.get(c.topic) === c);
}

/**
 * The timeline in the page's order: the newest unread due cue is the one to read now
 * (`waiting`: how many more are unread), upcoming ones soonest first, and the earlier ones
 * (all other due cues, read or not) newest first, at most `earlierSize`.
 * @param {Cue[]} cues @param {number} now @param {number} earlierSize @returns {Arranged}
 */
export function arrange(cues, now, earlierSize) {
  const due = cues.filter((c) => c.at <= now);
  const upcoming = cues.filter((c) => c.at > now).sort((a, b) => a.at - b.at);
  const toRead = due.filter((c) => !c.acknowledged).sort((a, b) => b.at - a.at);
  const current = toRead[0] ?? null;
  const earlier = due.filter((c) => c !== current).sort((a, b) => b.at - a.at)
    .slice(0, earlierSize);
  return {current, waiting: Math.max(0, toRead.length - 1), upcoming, earlier};
}

/**
 * The Super 9 entries with the view's revision added, stamped `now`, the oldest dropped past
 * `keep`; the same array when the revision has no lines or is already held.
 * @param {Super9Entry[]} entries
 * @param {{revision: number, doc: {lines?: string[], session?: string | null}} | undefined} view
 * @param {number} now @param {number} keep @returns {Super9Entry[]}
 */
export function withSuper9(entries, view, now, keep) {
  const lines = view?.doc.lines ?? [];
  if (view === undefined || lines.length === 0) return entries;
  const id = `super9-${view.revision}`;
  if (entries.some((s) => s.id === id)) return entries;
  return [...entries, {id, session: view.doc.session, lines, at: now, acknowledged: false}]
    .slice(-keep);
}

/** The entries with `id` marked read. @param {Super9Entry[]} entries @param {string} id */
export function markRead(entries, id) {
  return entries.map((s) => (s.id === id ? {...s, acknowledged: true} : s));
}

/**
 * The claim deadline a Wild Card cue of the running claim counts down to, else null.
 * @param {Cue | null} cue
 * @param {{phase?: string, round?: number, claim_deadline?: number | null} | undefined} draw
 * @returns {number | null}
 */
export function deadlineOf(cue, draw) {
  const round = cue?.id.match(/^wildcard-r(\d+)-/);
  if (!round || !draw || draw.phase !== "claim" || !draw.claim_deadline) return null;
  return Number(round[1]) === draw.round ? draw.claim_deadline : null;
}
