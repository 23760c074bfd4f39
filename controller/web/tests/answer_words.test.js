// The words of an answer without a browser: no full card number, no id, no epoch.
import assert from "node:assert/strict";
import {test} from "node:test";

import {cardEnding, payloadWords, plain, warningsOf} from "../answer_words.js";

const AT = (ms) => `venue ${ms % 1000}`;  // a stand-in for the console's venue clock

test("a card number in the controller's sentence keeps only its last four digits", () => {
  assert.equal(plain("No member is registered with card 1234567.", AT),
    "No member is registered with card ending 4567.");
  assert.equal(plain("Card 80012345678 is already registered.", AT),
    "Card ending 5678 is already registered.");
  assert.equal(plain("Card ending 4567 is already registered.", AT),
    "Card ending 4567 is already registered.");
  assert.equal(plain("Score must be at most 999 999 999.", AT),
    "Score must be at most 999 999 999.");
  assert.equal(cardEnding("1234 5678"), "card ending 5678");
});

test("an epoch in milliseconds is said as the venue's time of day", () => {
  assert.equal(plain("opened at 1705593606123", AT), "opened at venue 123");
});

test("what was sent is said in words: cards masked, ids and objects left out", () => {
  assert.equal(payloadWords({stage: "qualifying"}, AT), "stage qualifying");
  assert.equal(payloadWords({card: "1234567", display_name: "Thandi Mokoena"}, AT),
    "card ending 4567, display name Thandi Mokoena");
  assert.equal(payloadWords({entry: "S1", score: 60000}, AT), "score 60\u00a0000");
  assert.equal(payloadWords({card_checked: true, id_checked: false}, AT),
    "card checked, id checked: no");
  assert.equal(payloadWords({at_ms: 1705593606123, heat: null, note: ""}, AT),
    "at venue 123");
  assert.equal(payloadWords({entry: "S1", signature: {sha256: "ab", strokes: 3}}, AT),
    "signature signed");
  assert.equal(payloadWords({cue_id: "wildcard-r1-start"}, AT), "");
});

test("the events' warnings are the MC's to read", () => {
  assert.deepEqual(warningsOf({events: [{data: {warning: "Thandi M.: 1 score not signed"}},
    {data: {card: "1234567"}}]}), ["Thandi M.: 1 score not signed"]);
  assert.deepEqual(warningsOf({}), []);
});
