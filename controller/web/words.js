// @ts-check
/* Words for the people on the floor, made from the controller's names: no DOM, so the pure
 * modules (the cue timeline) and their tests use it too. */

/** "record_score" -> "Record score", "super9" -> "Super 9".
 * @param {string} name */
export function humanize(name) {
  const words = name.replace(/_/g, " ").replace(/([a-z])(\d)/gi, "$1 $2");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
