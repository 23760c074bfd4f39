// The cue page's timeline without a browser: what is withdrawn, what is read now, the order of
// the lists, and the Super 9 entries kept on the device.
import assert from "node:assert/strict";
import {test} from "node:test";

import {arrange, deadlineOf, kindOf, markRead, promotionOf, timeline, withSuper9}
  from "../cue_timeline.js";

const NONE = new Set();

/** A `cues` view entry of the Wild Card's round 1 claim. */
function cue(id, atMs, extra = {}) {
  return {id, text: `${id} text`, at_ms: atMs, topic: "wildcard-r1-claim", ...extra};
}

test("a later due cue of the same topic withdraws an unread earlier one", () => {
  const cues = [cue("wildcard-r1-remind-30", 1000), cue("wildcard-r1-time-up", 2000)];
  assert.deepEqual(timeline(cues, [], NONE, 1500).map((c) => c.id), ["wildcard-r1-remind-30",
    "wildcard-r1-time-up"]);  // the later one is not due yet: both stay, one upcoming
  assert.deepEqual(timeline(cues, [], NONE, 2000).map((c) => c.id), ["wildcard-r1-time-up"]);
});

test("a read cue stays in the history when a later one of its topic comes", () => {
  const cues = [cue("wildcard-r1-remind-30", 1000, {acknowledged: true}),
    cue("wildcard-r1-time-up", 2000)];
  assert.deepEqual(timeline(cues, [], NONE, 3000).map((c) => c.id),
    ["wildcard-r1-remind-30", "wildcard-r1-time-up"]);
  const pressed = timeline([cue("wildcard-r1-remind-30", 1000), cue("wildcard-r1-time-up", 2000)],
    [], new Set(["wildcard-r1-remind-30"]), 3000);  // answered here, the view not caught up
  assert.equal(pressed.length, 2);
  assert.equal(pressed[0].acknowledged, true);
});

test("cues of other topics are not withdrawn", () => {
  const cues = [cue("wildcard-r1-winner", 1000, {topic: "wildcard-r1-winner"}),
    cue("poker-seats-1", 2000, {topic: "poker-seats"})];
  assert.equal(timeline(cues, [], NONE, 3000).length, 2);
});

test("the newest unread due cue is read now; the lists are in the page's order", () => {
  const cues = [
    cue("a-1", 1000, {topic: "a"}), cue("b-1", 3000, {topic: "b"}),
    cue("c-1", 2000, {topic: "c", acknowledged: true}),
    cue("d-1", 9000, {topic: "d"}), cue("e-1", 7000, {topic: "e"}),
  ];
  const {current, waiting, upcoming, earlier} = arrange(timeline(cues, [], NONE, 5000), 5000, 8);
  assert.equal(current?.id, "b-1");
  assert.equal(waiting, 1);  // a-1 is unread too
  assert.deepEqual(upcoming.map((c) => c.id), ["e-1", "d-1"]);  // soonest first
  assert.deepEqual(earlier.map((c) => c.id), ["c-1", "a-1"]);  // newest first, not the current
  assert.deepEqual(arrange(timeline(cues, [], NONE, 5000), 5000, 1).earlier.map((c) => c.id),
    ["c-1"]);
});

test("nothing due is nothing to read now", () => {
  const {current, waiting, upcoming} = arrange(timeline([cue("a-1", 9000)], [], NONE, 0), 0, 8);
  assert.equal(current, null);
  assert.equal(waiting, 0);
  assert.equal(upcoming.length, 1);
});

test("a cue is due at its time exactly", () => {
  assert.equal(arrange(timeline([cue("a-1", 1000)], [], NONE, 1000), 1000, 8).current?.id, "a-1");
  assert.equal(arrange(timeline([cue("a-1", 1000)], [], NONE, 999), 999, 8).current, null);
});

test("each Super 9 revision with lines is one entry; the newest withdraws an unread older", () => {
  const view = (revision, lines) => ({revision, doc: {lines, session: "Evening"}});
  let entries = withSuper9([], view(3, ["17 red"]), 1000, 12);
  assert.equal(withSuper9(entries, view(3, ["17 red"]), 1500, 12), entries);  // already held
  assert.equal(withSuper9(entries, view(4, []), 1500, 12), entries);  // no lines
  entries = withSuper9(entries, view(5, ["4 black"]), 2000, 12);
  assert.deepEqual(entries.map((e) => [e.id, e.at]), [["super9-3", 1000], ["super9-5", 2000]]);
  const shown = timeline([], entries, NONE, 3000);
  assert.deepEqual(shown.map((c) => [c.id, c.kind, c.local]), [["super9-5", "Evening", true]]);
  const read = markRead(entries, "super9-3");
  assert.deepEqual(read.map((e) => e.acknowledged), [true, false]);
  assert.equal(timeline([], read, NONE, 3000).length, 2);
  assert.deepEqual(withSuper9(entries, view(6, ["1 red"]), 4000, 2).map((e) => e.id),
    ["super9-5", "super9-6"]);  // the oldest dropped past `keep`
});

test("the names of a cue, from its id", () => {
  assert.equal(promotionOf("wildcard-r2-winner"), "Wild Card");
  assert.equal(promotionOf("bingo9-call"), "Bingo 9");
  assert.equal(kindOf("wildcard-r2-remind-30"), "Reminder, 30 s left");
  assert.equal(kindOf("poker-seat-passed-3"), "Semi seat passed on");
  assert.equal(kindOf("slots-something"), "Cue");
});

test("only a cue of the running claim's round counts down", () => {
  const draw = {phase: "claim", round: 2, claim_deadline: 5000};
  const of = (id) => ({id, topic: id, promotion: "", kind: "", lines: [], at: 0,
    acknowledged: false, local: false});
  assert.equal(deadlineOf(of("wildcard-r2-winner"), draw), 5000);
  assert.equal(deadlineOf(of("wildcard-r1-winner"), draw), null);
  assert.equal(deadlineOf(of("wildcard-r2-winner"), {...draw, phase: "finalist"}), null);
  assert.equal(deadlineOf(null, draw), null);
});

test("a prize's reminder is named by its promotion and said to be one", () => {
  assert.equal(promotionOf("prize-roulette-final-1-48h"), "Roulette");
  assert.equal(kindOf("prize-roulette-final-1-48h"), "Prize reminder");
  assert.equal(kindOf("prize-super9-2026-12-07T12:43-5-1h"), "Prize reminder");
});
