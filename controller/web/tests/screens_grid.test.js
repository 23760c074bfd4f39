// The /screens table's rules without a browser: a screen's state, its row's words, the
// filters, the sort (offline first) and when a report changes nothing.
import assert from "node:assert/strict";
import {test} from "node:test";

import {NO_PLAYLIST, comparator, counts, kindOf, matches, mediaText, playingText, signature,
  stateText} from "../screens_grid.js";

/** A report row of the `screens` call. */
function row(screen, extra = {}) {
  return {screen, name: screen, group: "bar", status: "authorised", online: true,
    since_ms: 1000, playlists: ["house"], takeover: null, scene: "leaderboard", ...extra};
}

const ALL = {kind: "all", group: "", playlist: "", text: ""};
const clock = (ms) => `at ${ms}`;

test("a screen's state: offline means authorised and not connected", () => {
  assert.equal(kindOf(row("a")), "online");
  assert.equal(kindOf(row("a", {online: false})), "offline");
  assert.equal(kindOf(row("a", {status: "pending", online: false})), "waiting");
  assert.equal(kindOf(row("a", {status: "revoked", online: true})), "revoked");
  assert.equal(stateText(row("a", {online: false, since_ms: 5}), clock), "Offline since at 5");
  assert.equal(stateText(row("a", {online: false, since_ms: null}), clock), "Never connected");
  assert.equal(stateText(row("a", {status: "pending", online: false}), clock),
    "Waiting for authorisation, not connected");
  assert.equal(stateText(row("a", {status: "pending"}), clock), "Waiting for authorisation");
});

test("what a row says it plays: a takeover first, the scene only while connected", () => {
  assert.equal(playingText(row("a")), "house · Leaderboard");
  assert.equal(playingText(row("a", {online: false})), "house");
  assert.equal(playingText(row("a", {playlists: [], scene: ""})), "No playlist");
  assert.equal(playingText(row("a", {takeover: "announcement"})), "Taken over: Announcement");
});

test("media still on their way, in a few words", () => {
  assert.equal(mediaText(undefined), "");
  assert.equal(mediaText({missing: [], done_bytes: 0, total_bytes: 0}), "");
  assert.equal(mediaText({missing: ["a.mp4", "b.jpg"], done_bytes: 40, total_bytes: 100}),
    "Waiting for media: a.mp4, b.jpg \u2014 40\u00a0%");
  assert.equal(mediaText({missing: ["a", "b", "c", "d"], done_bytes: 0, total_bytes: 0}),
    "Waiting for media: a, b and 2 more \u2014 0\u00a0%");
});

test("filters by state, group, playlist and name, together", () => {
  const rows = [row("bar-1"), row("bar-2", {online: false}), row("lobby-1", {group: "lobby",
    name: "Cashier cage", playlists: []})];
  const keep = (filter) => rows.filter((r) => matches(r, {...ALL, ...filter}))
    .map((r) => r.screen);
  assert.deepEqual(keep({kind: "offline"}), ["bar-2"]);
  assert.deepEqual(keep({group: "lobby"}), ["lobby-1"]);
  assert.deepEqual(keep({playlist: "house"}), ["bar-1", "bar-2"]);
  assert.deepEqual(keep({playlist: NO_PLAYLIST}), ["lobby-1"]);
  assert.deepEqual(keep({text: " CASHIER "}), ["lobby-1"]);
  assert.deepEqual(keep({text: "bar-"}), ["bar-1", "bar-2"]);
  assert.deepEqual(keep({kind: "offline", group: "lobby"}), []);
});

test("offline first, then waiting, online, revoked; names in their numeric order", () => {
  const rows = [row("s-10"), row("s-9", {status: "revoked"}), row("s-2"),
    row("s-3", {status: "pending"}), row("s-11", {online: false})];
  assert.deepEqual([...rows].sort(comparator("trouble")).map((r) => r.screen),
    ["s-11", "s-3", "s-2", "s-10", "s-9"]);
  assert.deepEqual([...rows].sort(comparator("name")).map((r) => r.screen),
    ["s-2", "s-3", "s-9", "s-10", "s-11"]);
  assert.deepEqual(counts(rows), {all: 5, offline: 1, waiting: 1, online: 2, revoked: 1});
});

test("a report that changes nothing shown keeps the row's signature", () => {
  const before = row("a", {fps: 2.5, last_seen_ms: 1, uptime_s: 3});
  assert.equal(signature(before), signature({...before, last_seen_ms: 2, uptime_s: 6}));
  assert.notEqual(signature(before), signature({...before, scene: "attract"}));
  assert.notEqual(signature(before), signature({...before, media: {missing: ["a.mp4"],
    done_bytes: 1, total_bytes: 2}}));
});
