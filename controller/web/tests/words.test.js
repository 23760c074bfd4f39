// Words for the floor without a browser: the time left as people read it.
import assert from "node:assert/strict";
import {test} from "node:test";

import {humanize, span, timeLeft} from "../words.js";

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const DAY = 24 * H;

test("under an hour a time left reads as a countdown, rounded up to the second", () => {
  assert.equal(span(42 * S), "0:42");
  assert.equal(span(83_400), "1:24");
  assert.equal(span(H - S), "59:59");
  assert.equal(span(1), "0:01");
  assert.equal(span(0), "0:00");
  assert.equal(span(-5 * S), "0:00");
});

test("under a day in hours and minutes", () => {
  assert.equal(span(H), "1 h");
  assert.equal(span(2 * H + 5 * MIN + 30 * S), "2 h 5 min");
  assert.equal(span(DAY - MIN), "23 h 59 min");
});

test("a day or more in days and hours, never minutes counted in thousands", () => {
  assert.equal(span(13 * DAY + H + 12 * MIN), "13 days 1 h");
  assert.equal(span(DAY), "1 day");
  assert.equal(span(DAY + 5 * H), "1 day 5 h");
  assert.equal(span(15 * DAY), "15 days");
});

test("a deadline's time left reads the same on the Prizes and the Audit tabs", () => {
  assert.equal(timeLeft(14 * DAY + 3 * H), "14 days 3 h left");
  assert.equal(timeLeft(5 * H + 20 * MIN), "5 h 20 min left");
  assert.equal(timeLeft(0), "Deadline passed");
  assert.equal(timeLeft(-MIN), "Deadline passed");
});

test("a promotion's name reads as its rules write it", () => {
  assert.equal(humanize("wildcard"), "Wild Card");
  assert.equal(humanize("super9"), "Super 9");
  assert.equal(humanize("record_score"), "Record score");
});
