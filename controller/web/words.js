// @ts-check
/* Words for the people on the floor, made from the controller's names: no DOM, so the pure
 * modules (the cue timeline) and their tests use it too. */

/** Names the rules write their own way, not as the words of the controller's name. */
const AS_WRITTEN = /** @type {Record<string, string>} */ ({wildcard: "Wild Card"});

/** "record_score" -> "Record score", "super9" -> "Super 9", "wildcard" -> "Wild Card".
 * @param {string} name */
export function humanize(name) {
  if (name in AS_WRITTEN) return AS_WRITTEN[name];
  const words = name.replace(/_/g, " ").replace(/([a-z])(\d)/gi, "$1 $2");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A time left as people read it: "0:42" and "59:59" under an hour (a countdown), "2 h 5 min"
 * under a day, "13 days 1 h" beyond (never "18718:48"); "0:00" once past. Seconds are rounded
 * up, so a countdown shows "0:00" only at its end; the longer spans drop what is under a unit.
 * @param {number} ms */
export function span(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  const minutes = Math.floor(s / 60);
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  const word = days === 1 ? "day" : "days";
  return hours % 24 ? `${days} ${word} ${hours % 24} h` : `${days} ${word}`;
}

/** A deadline's time left: "14 days 3 h left", "5 h 12 min left", "Deadline passed".
 * @param {number} ms */
export function timeLeft(ms) {
  return ms <= 0 ? "Deadline passed" : `${span(ms)} left`;
}
