// A group's playlists in words without a browser: scenes by title and settings, the hours a
// playlist plays (past midnight, in another zone), what plays now and after a take-off.
import assert from "node:assert/strict";
import {test} from "node:test";

import {changeWords, clockWords, dataWords, daysWords, durationWords, hoursWords, momentWords,
  nowWords, problemWords, sceneWords, screensWords, stateWords, thenWords}
  from "../screens_playlist.js";

/** A playlist of the `group_playlists` answer. */
function playlist(extra = {}) {
  return {name: "late", file: "late.yaml", priority: 5, timezone: "Africa/Johannesburg",
    windows: [], loop: true, transition: "crossfade", items: [], fallback: null, text: "",
    state: "playing", next_ms: null, then: {kind: "default", name: "", scene: "attract"},
    last: null, ...extra};
}

test("a scene by its title, the data it shows and its main settings", () => {
  assert.deepEqual(sceneWords({scene: "leaderboard", duration_ms: 30000, transition: "slide",
    params: {view: "leaderboard:slots", rows_per_page: 12}, reads: "leaderboard:slots"}),
  {title: "Leaderboard \u00b7 Slots PAYOFF", settings: "12 rows a page",
    time: "30\u00a0s, slides in"});
  assert.equal(sceneWords({scene: "jackpot_ticker", duration_ms: 8000, params: {},
    reads: "pools:slots"}).title, "Jackpot ticker \u00b7 Slots PAYOFF prize pool");
  assert.deepEqual(sceneWords({scene: "video", duration_ms: 90000, transition: "cut",
    params: {media: "reel.mp4", fit: "contain", start: "clock"}, reads: null}),
  {title: "Video", settings: "plays reel.mp4, all of it, bars at the edges, in step on every " +
    "screen", time: "1\u00a0min 30\u00a0s, cuts in"});
  const attract = sceneWords({scene: "attract", params: {images: ["a.png", "b.png", "c.png"]},
    reads: "attract"});
  assert.deepEqual(attract, {title: "Attract loop", settings: "pictures a.png, b.png and c.png",
    time: ""});  // a fallback has no duration
  assert.equal(sceneWords({scene: "announcement", duration_ms: 1000, reads: null,
    params: {body: "Doors\nopen at eight"}}).settings, "saying \u201cDoors open at eight\u201d");
  assert.equal(dataWords("claim_countdown", "draw:wildcard"), "");  // its title says it
  assert.equal(dataWords("next_event", "schedule:super9"), "Super 9 schedule");
  assert.equal(dataWords("prize_table", "prizes:slots"), "Slots PAYOFF");
  assert.equal(dataWords("super9_board", "board:super9"), "");
  assert.equal(dataWords("wildcard_draw", "draw:wildcard"), "");
});

test("durations as people say them", () => {
  assert.deepEqual([1000, 2500, 60000, 90000, 3600000, 3661000].map(durationWords),
    ["1\u00a0s", "2.5\u00a0s", "1\u00a0min", "1\u00a0min 30\u00a0s", "1\u00a0h",
      "1\u00a0h 1\u00a0min 1\u00a0s"]);
});

test("the hours a playlist plays: its windows in words, past midnight the next morning", () => {
  assert.equal(daysWords([0, 1, 2, 3, 4, 5, 6]), "Every day");
  assert.equal(daysWords([0, 1, 2, 3, 4]), "Weekdays");
  assert.equal(daysWords([5, 6]), "Weekends");
  assert.equal(daysWords([4, 5]), "Fridays and Saturdays");
  assert.equal(daysWords([0, 2, 4]), "Mondays, Wednesdays and Fridays");
  assert.deepEqual([600, 1200, 1440, 1560].map(clockWords),
    ["10:00", "20:00", "midnight", "02:00 the next morning"]);
  const venue = "Africa/Johannesburg";
  assert.deepEqual(hoursWords(playlist(), venue), ["Always"]);
  assert.deepEqual(hoursWords(playlist({loop: false}), venue), ["Always, its scenes once"]);
  assert.deepEqual(hoursWords(playlist({windows: [
    {days: [4, 5], from_min: 1200, to_min: 1560},
    {days: [0, 1, 2, 3, 4], from_min: 600, to_min: 720}]}), venue),
  ["Fridays and Saturdays, 20:00 to 02:00 the next morning", "Weekdays, 10:00 to 12:00"]);
  assert.deepEqual(hoursWords(playlist({timezone: "Europe/London",
    windows: [{days: [6], from_min: 600, to_min: 660}]}), venue),
  ["Sundays, 10:00 to 11:00 (Europe/London time)"]);
});

test("what a group plays now, a playlist's state, and what a take-off leaves", () => {
  assert.equal(nowWords({kind: "playlist", name: "house", scene: "attract"}), "house");
  assert.equal(nowWords({kind: "takeover", name: "", scene: "announcement"}),
    "Taken over: Announcement");
  assert.equal(nowWords({kind: "fallback", name: "late", scene: "leaderboard"}),
    "late's fallback: Leaderboard");
  assert.equal(nowWords({kind: "default", name: "", scene: "attract"}),
    "The default scene (Attract loop)");
  const now = {kind: "playlist", name: "late", scene: "leaderboard"};
  const at = (/** @type {number} */ ms) => `Saturday ${ms}`;
  assert.equal(stateWords(playlist(), now, at), "Playing now");
  assert.equal(stateWords(playlist({state: "outranked", name: "house"}), now, at),
    "In its hours, but late plays before it");
  assert.equal(stateWords(playlist({state: "outranked"}), {kind: "takeover", name: "",
    scene: "announcement"}, at), "In its hours, but the group is taken over (Announcement)");
  assert.equal(stateWords(playlist({state: "starting"}), now, at),
    "Starts at the end of the scene playing now");
  assert.equal(stateWords(playlist({state: "waiting", next_ms: 20}), now, at),
    "Not in its hours: next from Saturday 20");
  assert.equal(thenWords({kind: "default", name: "", scene: "attract"}),
    "goes back to the default scene (Attract loop)");
  assert.equal(thenWords({kind: "playlist", name: "house", scene: "attract"}),
    "goes on with house");
});

test("changes and problems in words", () => {
  assert.equal(changeWords({what: "on", name: "late", by: "Sam", at_ms: 1,
    screens: []}),
    "Sam put late on");
  assert.equal(changeWords({what: "edited", name: "late", by: "Sam", at_ms: 1}),
    "Sam changed late");
  assert.equal(changeWords({what: "off", name: "late", by: "", at_ms: 1}),
    "Someone took late off");
  assert.equal(changeWords({what: "on", name: "own", by: "Sam", at_ms: 1,
    screens: ["bar-2"]}),
    "Sam put own on screen bar-2");
  assert.equal(changeWords({what: "edited", name: "own", by: "Sam", at_ms: 1,
    screens: ["bar-2"]}),
    "Sam changed own on screen bar-2");
  assert.equal(changeWords({what: "off", name: "own", by: "Sam", at_ms: 1,
    screens: ["bar-2"]}),
    "Sam took own off screen bar-2");
  assert.equal(changeWords({what: "on", name: "own", by: "Sam", at_ms: 1,
    screens: ["a-1", "a-2", "a-3", "a-4"]}), "Sam put own on screens a-1, a-2 and 2 more");
  assert.equal(screensWords(["a-1", "a-2"]), "screens a-1 and a-2");
  assert.equal(screensWords(["a-1", "a-2", "a-3"]), "screens a-1, a-2 and a-3");
  assert.equal(problemWords({line: 3, column: 13, message: "unknown scene 'nope'"}),
    "Line 3, column 13: unknown scene 'nope'");
});

test("a moment at the venue: its time today, its weekday this week, else its date", () => {
  const zone = "Africa/Johannesburg";
  const friday21 = Date.UTC(2026, 11, 4, 19, 0);  // 21:00 in Johannesburg
  assert.equal(momentWords(friday21 + 3600000, friday21, zone), "22:00");
  assert.equal(momentWords(friday21 + 23 * 3600000, friday21, zone), "Saturday 20:00");
  assert.equal(momentWords(friday21 + 8 * 86400000, friday21, zone),
    "Saturday 12 December 21:00");
  assert.equal(momentWords(friday21, friday21, "Europe/London"), "19:00");
});
