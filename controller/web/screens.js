// @ts-check
/* The technicians' floor page: every screen in one table (filter, search, sort, select several
 * and move them or play a playlist on them), a screen's detail on demand, each group's
 * playlists (shown in words, edited in place, taken off: screens_groups.js), enrol, playlists,
 * media and the kiosks. One link to /control (link.js).
 *
 * The page only sends the technician commands the CLI sends (`screens.enrol`, `…authorise`,
 * `…move`, `…move_many`, `…revoke`, `playlists.assign`, `playlists.unassign`) and shows the
 * controller's sentences.
 * It asks the controller for the screens' report (telemetry) every few seconds and hands it
 * to the table (screens_table.js), which writes only the rows that changed; it asks the
 * screens whose rows are in sight for a fresh picture now and then. A new screen's key is made
 * here and only its SHA-256 is sent: the controller never sees the key.
 */

import {$, el, Link, showGate, takeKey} from "./link.js";
import {sha256Hex} from "./sha256.js";
import {NO_PLAYLIST, SORTS, screensWord} from "./screens_grid.js";
import {Table} from "./screens_table.js";
import {Groups} from "./screens_groups.js";
import {say} from "./screens_editor.js";
import {ago, card, clockText, connection, update} from "./screens_card.js";

const REPORT_MS = 2000;
const GROUPS_MS = 10000;  // what each group plays now moves with the hours of its playlists
const GROUPS_SOONEST_MS = 250;
const PICTURE_MS = 15000;
const OPS = "ops:screens";
const DEVICES = "ops:devices";  // the kiosks are listed there (controller/realtime/devices.py)
const KEY_STORE = "showrunner.screens.key";

/** @type {Link} the link to the controller, made by start() */
let link;

/** @type {Table} the floor's rows, made by start() */
let table;

/** @type {Groups} each group's playlists, made by start() */
let groups;

/** @type {{screen: string, parts: import("./screens_card.js").Card} | null} the open detail */
let detail = null;

let asked = 0;  // reports asked for
let applied = 0;  // the newest of them applied: an answer overtaken by a newer one is dropped
let groupsAsked = 0;  // the same for the groups' playlists
let groupsApplied = 0;
let groupsTimer = 0;

const pictureUrl = (/** @type {string} */ screen, /** @type {number} */ at) =>
  `/screens/${encodeURIComponent(screen)}/screenshot.jpg?at=${at}`;

const actions = {send, askPicture, pictureUrl};

// -- answers -----------------------------------------------------------------------------------

/** Send one technician command; the ack, shown in `answer` in the controller's words. */
async function send(type, payload, answer, done) {
  const press = link.press(type, payload, () => say(answer, "waiting",
    "Not confirmed yet: sending the same press again when the controller answers…"));
  if (press === null) {
    say(answer, "error", "Another action is still being sent; try again in a moment.");
    return null;
  }
  say(answer, "waiting", "Sending…");
  const ack = await press;
  if (ack.ok) {
    say(answer, "ok", done);
  } else if (ack.error.code === "no_change") {
    say(answer, "ok", "Nothing to change: it is so already.");
  } else {
    say(answer, "error", ack.error.message);
  }
  refresh();
  refreshGroups();
  return ack;
}

// -- the table's surroundings -----------------------------------------------------------------

/** Replace a list's options only when they changed (a rebuild drops the user's choice). */
function options(/** @type {HTMLSelectElement | HTMLDataListElement} */ list,
  /** @type {[string, string][]} */ wanted) {
  const shape = JSON.stringify(wanted);
  if (list.dataset.shape === shape) return;
  list.dataset.shape = shape;
  const chosen = list instanceof HTMLSelectElement ? list.value : "";
  list.replaceChildren(...wanted.map(([value, words]) => {
    const option = el("option", null, words);
    option.value = value;
    return option;
  }));
  if (list instanceof HTMLSelectElement) {
    list.value = wanted.some(([value]) => value === chosen) ? chosen : "";
    if (list.value !== chosen) {  // its group or playlist is gone: show everything
      readFilters();
    }
  }
}

/** After the rows moved: counts, the filters' choices, the playlist's targets. */
function arranged() {
  const rows = table.rows();
  const groups = [...new Set(rows.filter((r) => r.status !== "revoked").map((r) => r.group))]
    .sort();
  const playlists = [...new Set(rows.flatMap((r) => r.playlists))].sort();
  for (const [kind, words] of table.tally()) {
    const node = $("kinds").querySelector(`[data-kind="${kind}"]`);
    if (node && node.textContent !== words) node.textContent = words;
  }
  options($("filter-group", HTMLSelectElement),
    [["", "Every group"], ...groups.map((g) => /** @type {[string, string]} */ ([g, g]))]);
  options($("filter-playlist", HTMLSelectElement), [["", "Every playlist"],
    ...playlists.map((p) => /** @type {[string, string]} */ ([p, p])),
    [NO_PLAYLIST, "No playlist"]]);
  options($("known-groups", HTMLDataListElement),
    groups.map((g) => /** @type {[string, string]} */ ([g, g])));
  $("no-screens").hidden = rows.length > 0;
  $("grid").hidden = rows.length === 0;
  $("none-shown").hidden = rows.length === 0 || table.shown.length > 0;
  $("shown").textContent = rows.length === 0 ? ""
    : table.shown.length === rows.length ? `${screensWord(rows.length)}`
      : `Showing ${table.shown.length} of ${screensWord(rows.length)}`;
  renderTargets(groups);
  selected(table.selection);
}

/** The frame's rows were written: what depends on them. */
function wrote(/** @type {Set<string>} */ screens, /** @type {boolean} */ rearranged) {
  if (rearranged) arranged();
  if (detail && screens.has(detail.screen)) {
    const row = table.row(detail.screen);
    if (row) update(detail.parts, row, link.now(), actions);
  }
}

/** The selection changed: the bulk bar, the "select every screen shown" box, the target. */
function selected(/** @type {Set<string>} */ selection) {
  const n = selection.size;
  $("bulk").hidden = n === 0;
  $("bulk-count").textContent = `${screensWord(n)} selected`;
  const all = $("select-shown", HTMLInputElement);
  const ticked = table.shown.filter((s) => selection.has(s)).length;
  all.checked = ticked > 0 && ticked === table.shown.length;
  all.indeterminate = ticked > 0 && ticked < table.shown.length;
  $("selected-target").hidden = n === 0;
  $("selected-words").textContent = `The ${screensWord(n)} selected above`;
  if (n === 0) $("play-selected", HTMLInputElement).checked = false;
}

function readFilters() {
  const pressed = $("kinds").querySelector('[aria-pressed="true"]');
  table.filter = {
    kind: /** @type {any} */ (pressed instanceof HTMLElement ? pressed.dataset.kind : "all"),
    group: $("filter-group", HTMLSelectElement).value,
    playlist: $("filter-playlist", HTMLSelectElement).value,
    text: $("search", HTMLInputElement).value,
  };
  table.sort = $("sort", HTMLSelectElement).value;
  table.refilter();
}

function onKind(/** @type {Event} */ event) {
  const target = event.target instanceof HTMLElement ? event.target.closest("button") : null;
  if (!target) return;
  for (const node of $("kinds").querySelectorAll("button")) {
    node.setAttribute("aria-pressed", String(node === target));
  }
  readFilters();
}

// -- bulk -----------------------------------------------------------------------------------

async function onBulkMove() {
  const group = $("bulk-group", HTMLInputElement).value.trim();
  const answer = $("bulk-answer");
  const screens = [...table.selection];
  if (!group) {
    say(answer, "error", "Type the group to move the selected screens to.");
    return;
  }
  const moving = screens.filter((s) => table.row(s)?.group !== group).length;
  const already = screens.length - moving;
  await send("screens.move_many", {screens, group}, answer,
    `Moved ${screensWord(moving)} to ${group}` +
    (already ? ` (${already} ${already === 1 ? "was" : "were"} in it already).` : "."));
}

function onBulkPlay() {
  $("play-selected", HTMLInputElement).checked = true;
  $("playlist-title").scrollIntoView({block: "start"});
  $("playlist-file").focus({preventScroll: true});
}

// -- a screen's detail ---------------------------------------------------------------------

function openDetail(/** @type {string} */ screen) {
  const row = table.row(screen);
  if (!row) return;
  const parts = card(screen, actions);
  detail = {screen, parts};
  const close = el("button", "close", "Close");
  close.type = "button";
  close.addEventListener("click", () => $("detail", HTMLDialogElement).close());
  const dialog = $("detail", HTMLDialogElement);
  dialog.setAttribute("aria-label", `Screen ${screen}`);
  dialog.replaceChildren(close, parts.item);
  update(parts, row, link.now(), actions);
  dialog.showModal();
  if (row.online && row.status === "authorised") askPicture(screen, null);
}

// -- talking to the controller -------------------------------------------------------------

async function refresh() {
  if (!link?.connected) return;
  const number = ++asked;
  let report;
  try {
    report = await link.call("screens", {});
  } catch {
    return;
  }
  if (!report.ok) {
    showGate("Not for this login", report.error.message);
    return;
  }
  if (number < applied) return;
  applied = number;
  table.receive(report.screens);
}

/** Each group's playlists (`group_playlists`), for the groups' panel; asked again every
 * GROUPS_MS, or sooner at the moment a group's playlist starts or stops (a window opens). */
async function refreshGroups() {
  clearTimeout(groupsTimer);
  groupsTimer = setTimeout(refreshGroups, GROUPS_MS);
  if (!link?.connected) return;
  const number = ++groupsAsked;
  const report = await link.call("group_playlists", {}).catch(() => null);
  if (!report?.ok || number < groupsApplied) return;
  groupsApplied = number;
  groups.receive(report.groups);
  const next = Math.min(...report.groups.flatMap((g) => [g, ...g.own])
    .map((program) => program.changes_at_ms ?? Infinity));
  if (next - link.now() < GROUPS_MS) {
    clearTimeout(groupsTimer);
    groupsTimer = setTimeout(refreshGroups, Math.max(GROUPS_SOONEST_MS, next - link.now()));
  }
}

async function askPicture(screen, answer) {
  const reply = await link.call("screenshot_request", {screen}).catch(() => null);
  if (answer && reply && !reply.ok) say(answer, "error", reply.error.message);
  if (answer && reply?.ok) say(answer, "ok", "A new picture was asked for.");
}

/** New pictures of the screens in sight only: 300 screens' worth would be 14 MB a round. */
function askPictures() {
  for (const row of table.inSight()) {
    if (row.online && row.status === "authorised") askPicture(row.screen, null);
  }
}

/** The ehost kiosks (docs/ehost.md): name, connection, last swipe, refused swipes. */
function renderKiosks() {
  const kiosks = link.doc(DEVICES)?.kiosks ?? [];
  const now = link.now();
  $("no-kiosks").hidden = kiosks.length > 0;
  $("kiosks").hidden = kiosks.length === 0;
  $("kiosk-rows").replaceChildren(...kiosks.map((kiosk) => {
    const row = el("tr");
    row.dataset.state = kiosk.state;
    const swipe = kiosk.last_swipe_ms === null ? "None yet"
      : `${clockText(kiosk.last_swipe_ms)} (${ago(now - kiosk.last_swipe_ms)} ago)`;
    row.append(el("th", null, kiosk.name),
      el("td", "kiosk-state", connection({online: kiosk.state === "online",
        since_ms: kiosk.since_ms}, now)),
      el("td", null, swipe), el("td", null, String(kiosk.refused)));
    row.firstElementChild?.setAttribute("scope", "row");
    return row;
  }));
}

// -- media ----------------------------------------------------------------------------------

function megabytes(/** @type {number} */ bytes) {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

/** POST /media (multipart `file`): what the controller kept, or its sentence. */
async function onMedia(/** @type {Event} */ event) {
  event.preventDefault();
  const answer = $("media-answer");
  const file = $("media-file", HTMLInputElement).files?.[0];
  if (!file) {
    say(answer, "error", "Choose a picture or a video first.");
    return;
  }
  const form = new FormData();
  form.append("file", file);
  say(answer, "waiting", `Sending ${file.name}…`);
  let response;
  try {
    response = await fetch("/media", {method: "POST", body: form});
  } catch {
    say(answer, "error", "The controller could not be reached; try again.");
    return;
  }
  const reply = await response.json().catch(() => null);
  if (response.ok && reply && typeof reply.name === "string") {
    say(answer, "ok", `${reply.name} is added (${reply.kind}, ${megabytes(reply.size)}): ` +
      "a playlist may name it now.");
    $("media-form", HTMLFormElement).reset();
  } else if (reply && typeof reply.error === "string") {
    say(answer, "error", reply.error);
  } else if (response.status === 404) {
    say(answer, "error", "This controller does not take media: its version has no media " +
      "store yet.");
  } else if (response.status === 413) {
    say(answer, "error", `${file.name} is too large for the controller to take.`);
  } else {
    say(answer, "error", `The controller did not take the file (it answered ` +
      `${response.status}${response.statusText ? ` ${response.statusText}` : ""}).`);
  }
}

// -- enrolment --------------------------------------------------------------------------------

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function onEnrol(event) {
  event.preventDefault();
  const screen = $("enrol-screen", HTMLInputElement).value.trim();
  const group = $("enrol-group", HTMLInputElement).value.trim();
  const answer = $("enrol-answer");
  $("key-box").hidden = true;
  if (!screen || !group) {
    say(answer, "error", "Give the screen's name and its group.");
    return;
  }
  const key = newKey();
  const ack = await send("screens.enrol", {screen, group,
    name: $("enrol-label", HTMLInputElement).value.trim(),
    key_hash: sha256Hex(key)}, answer,
  `${screen} is enrolled in ${group} and waits for authorisation.`);
  if (!ack?.ok) return;
  $("key").textContent = key;
  $("key-box").hidden = false;
  $("enrol-form", HTMLFormElement).reset();
}

async function onCopyKey() {
  const key = $("key").textContent;
  try {
    await navigator.clipboard.writeText(key);
    say($("enrol-answer"), "ok", "The key is copied.");
  } catch {
    getSelection()?.selectAllChildren($("key"));
    say($("enrol-answer"), "ok", "The key is selected: copy it with the keyboard.");
  }
}

function onHideKey() {
  $("key").textContent = "";
  $("key-box").hidden = true;
}

// -- playlists --------------------------------------------------------------------------------

/** The playlist's targets: every group (ticks kept), and the selection if there is one. */
function renderTargets(/** @type {string[]} */ groups) {
  const box = $("targets");
  const shape = JSON.stringify(groups);
  if (box.dataset.shape === shape) return;
  box.dataset.shape = shape;
  const ticked = new Set([...box.querySelectorAll("label.group-target input")]
    .filter((i) => i instanceof HTMLInputElement && i.checked)
    .map((i) => i instanceof HTMLInputElement ? i.value : ""));
  $("no-targets").hidden = groups.length > 0;
  box.querySelectorAll("label.group-target").forEach((l) => l.remove());
  const before = $("selected-target");
  for (const group of groups) {
    const label = el("label", "target group-target");
    const input = el("input");
    input.type = "checkbox";
    input.value = group;
    input.checked = ticked.has(group);
    label.append(input, `Group ${group}`);
    box.insertBefore(label, before);
  }
}

function playlistInput() {
  const groups = [...$("targets").querySelectorAll("label.group-target input")]
    .filter((i) => i instanceof HTMLInputElement && i.checked)
    .map((i) => i instanceof HTMLInputElement ? i.value : "");
  const screens = $("play-selected", HTMLInputElement).checked ? [...table.selection] : [];
  return {
    file: $("playlist-file", HTMLInputElement).value.trim(),
    yaml: $("playlist-text", HTMLTextAreaElement).value,
    screens,
    groups,
  };
}

function showProblems(problems) {
  const list = $("problems");
  list.hidden = problems.length === 0;
  list.replaceChildren(...problems.map((p) => el("li", null,
    `${p.file}, line ${p.line}, column ${p.column}: ${p.message}`)));
}

/** Check the playlist on the controller; true when it has no problem. */
async function check() {
  const input = playlistInput();
  const answer = $("playlist-answer");
  showProblems([]);
  if (!input.file || !input.yaml.trim()) {
    say(answer, "error", "Give the playlist's file name and its text (paste it or open it).");
    return false;
  }
  const reply = await link.call("check_playlist", input).catch(() => null);
  if (reply === null) {
    say(answer, "error", "The controller did not answer; try again.");
    return false;
  }
  if (!reply.ok) {
    say(answer, "error", reply.error.message);
    showProblems(reply.problems ?? []);
    return false;
  }
  say(answer, "ok", `${reply.name} is fine: ${reply.scenes} ` +
    `scene${reply.scenes === 1 ? "" : "s"}. Nothing was changed.`);
  return true;
}

async function onAssign(event) {
  event.preventDefault();
  if (!(await check())) return;
  const input = playlistInput();
  const answer = $("playlist-answer");
  if (!input.screens.length && !input.groups.length) {
    say(answer, "error", "Tick the groups or the selected screens to play it on.");
    return;
  }
  const where = [...input.groups.map((g) => `group ${g}`),
    ...(input.screens.length ? [`the ${screensWord(input.screens.length)} selected`] : [])]
    .join(", ");
  const ack = await send("playlists.assign", input, answer,
    `Playing on ${where} from its next scene.`);
  if (ack && !ack.ok) showProblems([]);
}

async function onUpload() {
  const file = $("playlist-upload", HTMLInputElement).files?.[0];
  if (!file) return;
  $("playlist-text", HTMLTextAreaElement).value = await file.text();
  $("playlist-file", HTMLInputElement).value = file.name;
}

// -- start --------------------------------------------------------------------------------

function start() {
  const sort = $("sort", HTMLSelectElement);
  sort.replaceChildren(...SORTS.map(([value, words]) => {
    const option = el("option", null, words);
    option.value = value;
    return option;
  }));
  table = new Table($("screens", HTMLTableSectionElement), {
    open: openDetail, selected, wrote, pictureUrl,
    clock: (ms) => clockText(ms).slice(0, 5),
  });
  /** @type {any} */ (window).screensTimings = table.timings;  // read by the page test
  groups = new Groups($("groups"), $("no-groups"), {
    send, now: () => link.now(), venue: () => link.doc("venue")?.timezone,
    check: (file, yaml) => link.call("check_playlist", {file, yaml}),
  });
  $("kinds").addEventListener("click", onKind);
  $("search").addEventListener("input", readFilters);
  for (const id of ["filter-group", "filter-playlist", "sort"]) {
    $(id).addEventListener("change", readFilters);
  }
  $("select-shown", HTMLInputElement).addEventListener("change", (event) => {
    table.selectShown(event.target instanceof HTMLInputElement && event.target.checked);
  });
  $("bulk-move").addEventListener("click", onBulkMove);
  $("bulk-play").addEventListener("click", onBulkPlay);
  $("bulk-clear").addEventListener("click", () => {
    table.clearSelection();
    $("bulk-answer").hidden = true;
  });
  $("detail").addEventListener("close", () => { detail = null; });
  $("media-form").addEventListener("submit", onMedia);
  $("enrol-form").addEventListener("submit", onEnrol);
  $("copy-key").addEventListener("click", onCopyKey);
  $("hide-key").addEventListener("click", onHideKey);
  $("playlist-form").addEventListener("submit", onAssign);
  $("check-playlist").addEventListener("click", check);
  $("playlist-upload").addEventListener("change", onUpload);
  link = new Link("/control", takeKey(KEY_STORE), {
    online: async () => {
      $("gate").hidden = true;
      $("desk").hidden = false;
      refresh();
      refreshGroups();
      setTimeout(askPictures, 1000);  // once the first rows are in sight
    },
    views: (changed) => {
      if (changed.has(OPS)) {
        refresh();
        refreshGroups();
      }
      if (changed.has(DEVICES)) renderKiosks();
    },
    refused: (message) => showGate("Refused", message),
  });
  setInterval(refresh, REPORT_MS);
  setInterval(askPictures, PICTURE_MS);
  setInterval(() => {
    if (link.offsetMs !== null) $("clock").textContent = clockText(link.now());
    renderKiosks();  // their "since" and "ago" move on
    const row = detail && table.row(detail.screen);
    if (detail && row) update(detail.parts, row, link.now(), actions);  // its "ago" too
  }, 1000);
}

start();
