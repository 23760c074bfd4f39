// The auditor's days in the venue's words and zone, whatever the browser's locale.
import assert from "node:assert/strict";
import {test} from "node:test";

import {dayOf, dayWords, isoOf, venueDay, venueTime} from "../venue_day.js";

test("a day is written day, month, year in words, never mm/dd", () => {
  assert.equal(dayWords("2025-06-04"), "4 June 2025");
  assert.equal(dayWords("2024-12-31"), "31 December 2024");
});

test("a day the calendar has is sent as ISO; one it has not is no day", () => {
  assert.equal(isoOf({year: 2025, month: 6, day: 4}), "2025-06-04");
  assert.equal(isoOf({year: 2024, month: 2, day: 29}), "2024-02-29");
  assert.equal(isoOf({year: 2025, month: 2, day: 29}), null);
  assert.equal(isoOf({year: 2025, month: 6, day: 31}), null);
  assert.deepEqual(dayOf("2025-06-04"), {year: 2025, month: 6, day: 4});
});

test("today is the venue's day, not the device's", () => {
  const ms = Date.UTC(2025, 5, 4, 23, 30);  // 23:30 UTC: already the 5th in Johannesburg
  assert.deepEqual(venueDay(ms, "Africa/Johannesburg"), {year: 2025, month: 6, day: 5});
  assert.deepEqual(venueDay(ms, "America/New_York"), {year: 2025, month: 6, day: 4});
  assert.deepEqual(venueDay(ms, "Not/A_Zone"), venueDay(ms, undefined));
});

test("an instant is read on the venue's clock", () => {
  const ms = Date.UTC(2025, 5, 4, 17, 5);
  assert.equal(venueTime(ms, "Africa/Johannesburg"), "4 Jun, 19:05");
  assert.equal(venueTime(ms, "UTC"), "4 Jun, 17:05");
});
