// @ts-check
/* The technicians' floor page: every screen with its status, what it plays and a live
 * thumbnail; enrol, authorise, revoke, move and playlists. One link to /control (link.js).
 *
 * The page only sends the technician commands the CLI sends (`screens.enrol`, `…authorise`,
 * `…move`, `…revoke`, `playlists.assign`) and shows the controller's sentences. It asks the
 * controller for the screens' report (telemetry) every few seconds, reloads a thumbnail when
 * a newer one arrived, and asks online screens for a fresh picture now and then. A new
 * screen's key is made here and only its SHA-256 is sent: the controller never sees the key.
 */

import {$, el, Link, showGate, takeKey} from "./link.js";
import {humanize} from "./words.js";
import {sha256Hex} from "./sha256.js";
const REPORT_MS = 2000;
const PICTURE_MS = 15000;
const OPS = "ops:screens";
const DEVICES = "ops:devices";  // the kiosks are listed there (controller/realtime/devices.py)
const KEY_STORE = "showrunner.screens.key";
const STATUS = {pending: "Waiting for authorisation", authorised: "Authorised",
  revoked: "Revoked"};

/** @type {Link} the link to the controller, made by start() */
let link;

const state = {
  /** @type {{screens: Record<string, any>[]} | null} the controller's report of every screen */
  report: null,
  cards: new Map(),
  pictures: new Map(),
};

// -- words -----------------------------------------------------------------------------------

function clockText(ms) {
  return new Date(ms).toLocaleTimeString("en-GB", {hour12: false});
}

/** 95 000 ms -> "1 min", 12 000 -> "12 s", 7 300 000 -> "2 h 1 min" (unbroken). */
function ago(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}\u00a0s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}\u00a0min`;
  return `${Math.floor(minutes / 60)}\u00a0h ${minutes % 60}\u00a0min`;
}

function connection(row, now) {
  if (row.since_ms === null || row.since_ms === undefined) {
    return row.online ? "Online" : "Never connected";
  }
  const word = row.online ? "Online" : "Offline";
  return `${word} since ${clockText(row.since_ms)} (${ago(now - row.since_ms)})`;
}

function showing(row) {
  if (row.takeover) return `Taken over: ${humanize(row.takeover)}`;
  if (!row.online) return "Not connected";
  return row.scene ? humanize(row.scene) : "Nothing yet";
}

function number(value, unit = "") {
  return typeof value === "number" ? `${value}${unit}` : "Not reported";
}

function offset(value) {
  if (typeof value !== "number") return "Not reported";
  return `${value > 0 ? "+" : ""}${value} ms`;
}

// -- answers -----------------------------------------------------------------------------------

function say(node, kind, text) {
  node.hidden = false;
  node.dataset.kind = kind;
  node.textContent = text;
}

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
  return ack;
}

// -- a screen's card -------------------------------------------------------------------------

function fact(list, label) {
  const value = el("dd");
  list.append(el("dt", null, label), value);
  return value;
}

function button(text, className, onClick) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function card(screen) {
  const item = el("li", "screen");
  item.dataset.screen = screen;
  const picture = el("div", "picture");
  const img = el("img");
  img.alt = `What ${screen} shows`;
  img.hidden = true;
  const noPicture = el("span", "no-picture", "No picture yet");
  picture.append(img, noPicture);
  const title = el("h3", "screen-name", screen);
  const label = el("p", "screen-label");
  const facts = el("dl", "facts");
  const parts = {
    item, img, noPicture, title, label,
    status: fact(facts, "Status"), online: fact(facts, "Connection"),
    group: fact(facts, "Group"), playlists: fact(facts, "Playlists"),
    scene: fact(facts, "Showing"), fps: fact(facts, "Frames a second"),
    dropped: fact(facts, "Dropped frames"), offset: fact(facts, "Clock offset"),
  };
  parts.authorise = button("Authorise", "primary", () => send("screens.authorise",
    {screen}, parts.answer, `${screen} is authorised: it shows the show.`));
  parts.picture = button("New picture", null, () => askPicture(screen, parts.answer));
  parts.revoke = button("Revoke…", "danger", () => { parts.confirm.hidden = false; });
  const groupInput = el("input");
  groupInput.setAttribute("aria-label", `New group for ${screen}`);
  groupInput.autocapitalize = "none";
  groupInput.spellcheck = false;
  groupInput.placeholder = "New group";
  parts.groupInput = groupInput;
  const move = button("Move to group", null, () => {
    const group = groupInput.value.trim();
    if (!group) {
      say(parts.answer, "error", "Type the group to move it to.");
      return;
    }
    send("screens.move", {screen, group}, parts.answer, `${screen} is now in ${group}.`);
  });
  const moveRow = el("div", "row move");
  moveRow.append(groupInput, move);
  parts.confirm = el("div", "confirm");
  parts.confirm.hidden = true;
  parts.confirm.append(
    el("p", null, `Revoke ${screen}? It goes dark and is refused until it is enrolled ` +
      "again with a new key."),
    button(`Yes, revoke ${screen}`, "danger", () => {
      parts.confirm.hidden = true;
      send("screens.revoke", {screen, reason: "revoked from the screens page"},
        parts.answer, `${screen} is revoked.`);
    }),
    button("Cancel", null, () => { parts.confirm.hidden = true; }));
  const actions = el("div", "row actions");
  actions.append(parts.authorise, parts.picture, parts.revoke);
  parts.answer = el("p", "answer");
  parts.answer.setAttribute("role", "status");
  parts.answer.hidden = true;
  parts.moveRow = moveRow;
  const body = el("div", "screen-body");
  body.append(title, label, facts, actions, moveRow, parts.confirm, parts.answer);
  item.append(picture, body);
  return parts;
}

function update(parts, row, now) {
  parts.item.dataset.status = row.status;
  parts.item.dataset.online = row.online ? "yes" : "no";
  parts.label.textContent = row.name !== row.screen ? row.name : "";
  parts.label.hidden = row.name === row.screen;
  parts.status.textContent = STATUS[row.status] ?? humanize(row.status);
  parts.online.textContent = connection(row, now);
  parts.group.textContent = row.group;
  parts.playlists.textContent = row.playlists.length ? row.playlists.join(", ") : "None";
  parts.scene.textContent = showing(row);
  parts.fps.textContent = number(row.fps);
  parts.dropped.textContent = number(row.dropped_frames);
  parts.offset.textContent = offset(row.clock_offset_ms);
  parts.authorise.hidden = row.status !== "pending";
  parts.revoke.hidden = row.status === "revoked";
  parts.moveRow.hidden = row.status === "revoked";
  parts.picture.hidden = !row.online || row.status === "revoked";
  if (row.screenshot_ms && parts.img.dataset.at !== String(row.screenshot_ms)) {
    parts.img.dataset.at = String(row.screenshot_ms);
    parts.img.src = `/screens/${encodeURIComponent(row.screen)}/screenshot.jpg` +
      `?at=${row.screenshot_ms}`;
    parts.img.hidden = false;
    parts.noPicture.hidden = true;
  }
}

function render() {
  const rows = state.report?.screens ?? [];
  const now = link.now();
  $("no-screens").hidden = rows.length > 0;
  const list = $("screens");
  for (const row of rows) {
    let parts = state.cards.get(row.screen);
    if (!parts) {
      parts = card(row.screen);
      state.cards.set(row.screen, parts);
    }
    update(parts, row, now);
  }
  list.replaceChildren(...rows.map((row) => state.cards.get(row.screen).item));
  renderTargets(rows);
}

/** The playlist's targets: every group and every screen not revoked, ticks kept. */
function renderTargets(rows) {
  const live = rows.filter((r) => r.status !== "revoked");
  const wanted = [...new Set(live.map((r) => r.group))].sort()
    .map((g) => ["groups", g, `Group ${g}`])
    .concat(live.map((r) => ["screens", r.screen, `Screen ${r.screen}`]));
  const box = $("targets");
  const shape = JSON.stringify(wanted);
  if (box.dataset.shape === shape) return;
  box.dataset.shape = shape;
  const ticked = new Set([...box.querySelectorAll("input")].filter((i) => i.checked)
    .map((i) => i.value));
  $("no-targets").hidden = wanted.length > 0;
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const [kind, name, text] of wanted) {
    const label = el("label", "target");
    const input = el("input");
    input.type = "checkbox";
    input.value = `${kind}:${name}`;
    input.checked = ticked.has(input.value);
    label.append(input, text);
    box.append(label);
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

// -- talking to the controller -------------------------------------------------------------

async function refresh() {
  if (!link?.connected) return;
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
  state.report = report;
  render();
}

async function askPicture(screen, answer) {
  const reply = await link.call("screenshot_request", {screen}).catch(() => null);
  if (answer && reply && !reply.ok) say(answer, "error", reply.error.message);
  if (answer && reply?.ok) say(answer, "ok", "A new picture was asked for.");
}

function askPictures() {
  for (const row of state.report?.screens ?? []) {
    if (row.online && row.status === "authorised") askPicture(row.screen, null);
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

function playlistInput() {
  const targets = [...$("targets").querySelectorAll("input")].filter((i) => i.checked)
    .map((i) => i.value);
  return {
    file: $("playlist-file", HTMLInputElement).value.trim(),
    yaml: $("playlist-text", HTMLTextAreaElement).value,
    screens: targets.filter((t) => t.startsWith("screens:")).map((t) => t.slice(8)),
    groups: targets.filter((t) => t.startsWith("groups:")).map((t) => t.slice(7)),
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
    say(answer, "error", "Tick the groups or screens to play it on.");
    return;
  }
  const where = [...input.groups.map((g) => `group ${g}`),
    ...input.screens.map((s) => `screen ${s}`)].join(", ");
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
      askPictures();
    },
    views: (changed) => {
      if (changed.has(OPS)) refresh();
      if (changed.has(DEVICES)) renderKiosks();
    },
    refused: (message) => showGate("Refused", message),
  });
  setInterval(refresh, REPORT_MS);
  setInterval(askPictures, PICTURE_MS);
  setInterval(() => {
    if (link.offsetMs !== null) $("clock").textContent = clockText(link.now());
    renderKiosks();  // their "since" and "ago" move on
  }, 1000);
}

start();
