// @ts-check
/* Calendar days as the venue writes them ("4 June 2025": day, month, year, as the console and
 * the auditor's PDF write dates), whatever the browser's locale: an <input type=date> shows
 * mm/dd/yyyy in an en-US browser, so the auditor's period is chosen from a day, a month and a
 * year instead (audit.js), and sent to the controller as ISO ("2025-06-04"). No DOM here, so
 * node's tests use it (controller/web/tests/venue_day.test.js). */

export const MONTHS = ["January", "February", "March", "April", "May", "June", "July",
  "August", "September", "October", "November", "December"];

/** @typedef {{year: number, month: number, day: number}} Day month 1-12 */

/** The ISO date of a day, or null when the calendar has no such day (31 June).
 * @param {Day} d @returns {string | null} */
export function isoOf({year, month, day}) {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 ||
      date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** "2025-06-04" -> {year: 2025, month: 6, day: 4}. @param {string} iso @returns {Day} */
export function dayOf(iso) {
  const [year, month, day] = iso.split("-").map(Number);
  return {year, month, day};
}

/** "4 June 2025", the venue's way. @param {string} iso */
export function dayWords(iso) {
  const {year, month, day} = dayOf(iso);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

/** The venue's calendar day at `ms` (its IANA zone; this device's when it has none or the
 * browser does not know it). @param {number} ms @param {string | undefined} zone
 * @returns {Day} */
export function venueDay(ms, zone) {
  /** @param {string | undefined} timeZone */
  const parts = (timeZone) => new Intl.DateTimeFormat("en-GB", {timeZone, year: "numeric",
    month: "numeric", day: "numeric"}).formatToParts(new Date(ms));
  let found;
  try {
    found = parts(zone);
  } catch {
    found = parts(undefined);
  }
  /** @param {string} type */
  const part = (type) => Number(found.find((p) => p.type === type)?.value);
  return {year: part("year"), month: part("month"), day: part("day")};
}

/** "2 Dec 14:05": an instant on the venue's clock (its zone; this device's when it has none).
 * @param {number} ms @param {string | undefined} zone */
export function venueTime(ms, zone) {
  const options = /** @type {Intl.DateTimeFormatOptions} */ ({day: "numeric", month: "short",
    hour: "2-digit", minute: "2-digit", hour12: false});
  try {
    return new Date(ms).toLocaleString("en-GB", {...options, timeZone: zone});
  } catch {
    return new Date(ms).toLocaleString("en-GB", options);
  }
}
