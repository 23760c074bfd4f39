// @ts-check
/* The MC console's start: the key, the tabs, one panel per live moment (console.js and the
 * panel modules), and "All commands": forms built from the controller's catalogue for the
 * commands the key's role may send, with the live views beside them.
 *
 * One link to /control (link.js). Every press gets one command_id; a press that is not
 * confirmed (timeout, lost connection) is resent with the SAME id until it is, so the controller
 * applies it once. Nothing here decides a rule: the server's sentences are shown.
 */

import {$, el, humanize, Link, loadJson, saveJson, setConnection, showGate, takeKey}
  from "./link.js";
import * as Console from "./console.js";
import "./wildcard.js";
import "./tournament.js";
import "./super9.js";
import "./roulette.js";
import "./takeover.js";
import "./rehearsal.js";
import "./notes.js";
const KEY_STORE = "showrunner.tablet.key";
const PLACE_STORE = "showrunner.tablet.place";
const TICK_MS = 250;

/** @type {Link} the link to the controller, made by start() */
let link;

const state = {
  catalogue: [],
  readers: [],
  place: loadJson(PLACE_STORE, {tab: "wildcard", group: null, command: null, view: null}),
};

// -- key and connection ------------------------------------------------------------------

function connect(key) {
  link = new Link("/control", key, {
    online: onOnline,
    views: onViews,
    refused: (message) => {
      sessionStorage.removeItem(KEY_STORE);
      showGate("Key refused", `The controller refused this tablet's key: ${message} ` +
        "Ask the technician for a new tablet link.");
    },
  });
}

async function onOnline() {
  $("gate").hidden = true;
  $("desk").hidden = false;
  const catalogue = await link.call("catalogue", {});
  Console.state.scenes = catalogue.scenes ?? {};
  const mine = catalogue.commands.filter((c) => c.role === catalogue.role);
  Console.state.allowed = new Set(mine.map((c) => c.type));
  setCatalogue(mine);
  if (link.views.size) onViews(new Set()); // the role's buttons, if views came first
}

function renderClock() {
  if (link.offsetMs === null) return;
  $("clock").textContent = link.timeOfDay(link.now());
}

// -- catalogue and the command form ------------------------------------------------------

function groupOf(type) {
  const dot = type.indexOf(".");
  return dot < 0 ? "members" : type.slice(0, dot);
}

function commandLabel(type) {
  return humanize(type.slice(type.indexOf(".") + 1));
}

function setCatalogue(commands) {
  if (JSON.stringify(commands) === JSON.stringify(state.catalogue)) return; // keep typed input
  state.catalogue = commands;
  const groups = [...new Set(commands.map((c) => groupOf(c.type)))];
  if (!groups.includes(state.place.group)) state.place.group = groups[0] ?? null;
  const known = commands.some((c) => c.type === state.place.command);
  if (!known) state.place.command = null;
  renderGroups(groups);
}

function savePlace() {
  saveJson(PLACE_STORE, state.place);
}

function renderGroups(groups) {
  const nav = $("groups");
  nav.replaceChildren(...groups.map((group) => {
    const button = el("button", "chip", humanize(group));
    button.type = "button";
    button.setAttribute("aria-pressed", String(group === state.place.group));
    button.addEventListener("click", () => {
      state.place.group = group;
      state.place.command = null;
      savePlace();
      renderGroups(groups);
    });
    return button;
  }));
  renderCommands();
}

function renderCommands() {
  const inGroup = state.catalogue.filter((c) => groupOf(c.type) === state.place.group);
  $("commands").replaceChildren(...inGroup.map((command) => {
    const button = el("button", "cmd", commandLabel(command.type));
    button.type = "button";
    button.title = command.type;
    button.setAttribute("aria-pressed", String(command.type === state.place.command));
    button.addEventListener("click", () => {
      state.place.command = command.type;
      savePlace();
      renderCommands();
    });
    return button;
  }));
  renderForm();
}

function selectedCommand() {
  return state.catalogue.find((c) => c.type === state.place.command) ?? null;
}

function renderForm() {
  const command = selectedCommand();
  $("form").hidden = command === null;
  $("pick-hint").hidden = command !== null;
  if (command === null) return;
  $("summary").textContent = command.summary;
  const controls = fieldsOf(command.payload).map(fieldControl);
  state.readers = controls.map((c) => [c.name, c.read]);
  $("fields").replaceChildren(...controls.map((c) => c.node));
  $("fields").scrollTop = 0;
  updateSendButton();
}

/** The payload's fields from its JSON Schema: name, property (nullable unwrapped), required. */
function fieldsOf(schema) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => (
    {name, required: required.has(name), ...nonNull(property)}));
}

/** `{anyOf: [X, {type: "null"}], default}` -> X with the default: an optional value. */
function nonNull(property) {
  const options = (property.anyOf ?? []).filter((option) => option.type !== "null");
  if (options.length !== 1) return property;
  const {anyOf, ...rest} = property;
  return {...options[0], ...rest, nullable: true};
}

/** One labelled input per payload field; `read()` gives its JSON value or undefined. */
function fieldControl(field) {
  const id = `field-${field.name}`;
  const wrap = el("div", "field");
  const label = el("label", "field-label", humanize(field.name));
  label.htmlFor = id;
  if (!field.required) label.append(el("span", "optional", "optional"));
  wrap.append(label);
  const {input, read} = field.type === "boolean" ? switchInput(field, wrap)
    : field.enum ? selectInput(field)
      : textInput(field);
  input.id = id;
  input.name = field.name;
  if (field.required) input.setAttribute("aria-required", "true");
  wrap.append(input);
  return {name: field.name, node: wrap, read};
}

function switchInput(field, wrap) {
  wrap.classList.add("inline");
  const input = el("input", "switch");
  input.type = "checkbox";
  input.setAttribute("role", "switch");
  input.checked = field.default === true;
  return {input, read: () => input.checked};
}

/** An enum is a choice: its values, plus "not given" when the field is optional. */
function selectInput(field) {
  const input = el("select", "text");
  const blank = field.required || field.default !== undefined ? [] : [""];
  input.replaceChildren(...[...blank, ...field.enum].map((value) => {
    const option = el("option", "", value === "" ? "—" : humanize(String(value)));
    option.value = value;
    return option;
  }));
  if (field.default !== undefined) input.value = field.default;
  return {input, read: () => input.value || undefined};
}

/** Text, whole numbers (with the schema's bounds) and comma-separated lists. */
function textInput(field) {
  const input = el("input", "text");
  input.type = "text";
  let read = () => input.value.trim() || undefined;
  if (field.type === "integer") {
    input.type = "number";
    input.step = "1";
    input.inputMode = "numeric";
    if (field.minimum !== undefined) input.min = String(field.minimum);
    if (field.maximum !== undefined) input.max = String(field.maximum);
    read = () => readInteger(input.value);
  } else if (field.type === "array") {
    input.placeholder = "comma-separated";
    const item = nonNull(field.items ?? {});
    read = () => readList(input.value, item.type === "integer", item.nullable === true);
  } else if (field.type === "object") {
    input.placeholder = "JSON object, e.g. {\"seconds\": 30}";
    read = () => readObject(input.value);
  } else {
    if (field.maxLength !== undefined) input.maxLength = field.maxLength;
    if (field.pattern !== undefined) input.pattern = field.pattern.replace(/^\^|\$$/g, "");
  }
  if (field.default !== undefined && field.default !== null) {
    input.value = Array.isArray(field.default) ? field.default.join(", ") : field.default;
  }
  return {input, read};
}

/** A whole number when it is one; otherwise the text itself, so the server says what is wrong. */
function readInteger(text) {
  const value = text.trim();
  if (value === "") return undefined;
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

/** "3, 7, 12" -> [3, 7, 12] for a list of numbers ("absent" -> null where allowed);
 * "S1, S2" -> ["S1", "S2"]. */
function readList(text, numbers, nullable) {
  const items = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) return undefined;
  if (!numbers) return items;
  return items.map((s) => (nullable && /^(absent|null)$/i.test(s) ? null : readInteger(s)));
}

/** A JSON object as typed; text that is not JSON is sent as typed for the server to name. */
function readObject(text) {
  const value = text.trim();
  if (value === "") return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function payload() {
  const out = {};
  for (const [name, read] of state.readers) {
    const value = read();
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function updateSendButton() {
  const send = $("send");
  const busy = link?.pending != null;
  send.disabled = busy;
  send.textContent = busy ? "Sending…" : "Send";
}

// -- sending and acks ----------------------------------------------------------------------

async function onSubmit(event) {
  event.preventDefault();
  const command = selectedCommand();
  if (command === null) return;
  const label = commandLabel(command.type);
  const envelope = {type: command.type, payload: payload()};
  const answer = link.press(envelope.type, envelope.payload, () => showAck("pending", label,
    "Not confirmed yet: resending the same press when the controller answers…"));
  if (answer === null) return; // the previous press is still unanswered
  updateSendButton();
  showAck("pending", label, link.connected ? "Sending…" : "Waiting for the controller…");
  const ack = await answer;
  updateSendButton();
  finish(envelope, ack);
}

function finish(envelope, ack) {
  const label = commandLabel(envelope.type);
  if (ack.ok) {
    const what = ack.events.map((e) => Console.eventWords(e.type)).join(", ");
    showAck("ok", label, "Done", what, ack.events.map(describeData).filter(Boolean).join(" · "));
    renderForm();
  } else {
    showAck("error", label, ack.error.message);
  }
  Console.remember({
    at: $("clock").textContent,
    label,
    values: describeData({data: envelope.payload}),
    ok: ack.ok,
    text: ack.ok ? ack.events.map((e) => Console.eventWords(e.type)).join(", ")
      : ack.error.message,
  });
}

/** The scalar fields of an event, e.g. "entry S1, card 1234567", so the MC sees new ids. */
function describeData(event) {
  return Object.entries(event.data ?? {})
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v))
    .map(([k, v]) => `${humanize(k).toLowerCase()} ${v}`)
    .join(", ");
}

function showAck(kind, label, headline, detail = "", data = "") {
  const box = $("ack");
  box.hidden = false;
  box.dataset.kind = kind;
  const lines = [el("div", "ack-label", label), el("div", "ack-headline", headline)];
  if (detail) {
    const line = el("div", "ack-line");
    line.append(el("span", "ack-detail", detail));
    if (data) line.append(el("span", "ack-data", data));
    lines.push(line);
  }
  box.replaceChildren(...lines);
}

// -- live views ----------------------------------------------------------------------------

function onViews(changed) {
  for (const panel of Console.state.panels) panel.render(changed);
  const views = link.views;
  if (!views.has(state.place.view)) {
    state.place.view = [...views.keys()].sort()[0] ?? null;
  }
  renderViewList(changed);
  if (changed.has(state.place.view)) renderView();
}

function renderViewList(changed = new Set()) {
  const names = [...link.views.keys()].sort();
  $("view-list").replaceChildren(...names.map((name) => {
    const button = el("button", "view-chip");
    button.type = "button";
    button.setAttribute("aria-pressed", String(name === state.place.view));
    button.append(el("span", "view-name", name),
      el("span", "view-rev", `rev ${link.views.get(name).revision}`));
    if (changed.has(name)) button.classList.add("fresh");
    button.addEventListener("click", () => {
      state.place.view = name;
      savePlace();
      renderViewList();
      renderView();
    });
    return button;
  }));
}

function renderView() {
  const body = $("view-body");
  const view = link?.views.get(state.place.view);
  if (view === undefined) {
    body.replaceChildren(el("p", "muted", "No views yet."));
    return;
  }
  const doc = view.doc;
  const rows = doc.rows;
  const isTable = Array.isArray(rows) && rows.every((r) => r && typeof r === "object");
  if (!isTable) {
    body.replaceChildren(el("pre", "json", JSON.stringify(doc, null, 2)));
    return;
  }
  const parts = [];
  const title = [doc.title, doc.subtitle].filter((s) => typeof s === "string").join(" · ");
  if (title) parts.push(el("h3", "view-title", title));
  const meta = Object.entries(doc)
    .filter(([k, v]) => !["title", "subtitle", "rows"].includes(k) && typeof v !== "object")
    .map(([k, v]) => `${humanize(k)}: ${v}`);
  if (meta.length) parts.push(el("p", "view-meta", meta.join(" · ")));
  parts.push(rows.length ? rowsTable(rows) : el("p", "muted", "No rows yet."));
  body.replaceChildren(...parts);
}

function rowsTable(rows) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const numeric = (column) => rows.every((r) => typeof r[column] === "number");
  const table = el("table", "rows");
  const headRow = el("tr");
  for (const column of columns) {
    headRow.append(el("th", numeric(column) ? "num" : null, humanize(column)));
  }
  table.append(el("thead"), el("tbody"));
  table.tHead.append(headRow);
  for (const row of rows) {
    const tr = el("tr");
    for (const column of columns) {
      const value = row[column];
      const td = el("td", typeof value === "number" ? "num" : null, cellText(value));
      tr.append(td);
    }
    table.tBodies[0].append(tr);
  }
  return table;
}

function cellText(value) {
  if (value === undefined || value === null) return "—";
  if (typeof value === "boolean") return value ? "yes" : "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// -- start -----------------------------------------------------------------------------------

// -- tabs ------------------------------------------------------------------------------------

function showTab(tab) {
  state.place.tab = tab;
  savePlace();
  for (const button of $("tabs").children) {
    button.setAttribute("aria-selected", String(button.dataset.tab === tab));
  }
  for (const page of document.querySelectorAll(".page")) {
    page.hidden = page.id !== `page-${tab}`;
  }
}

/** Every quarter second: the clock, and the panels that count down. */
function tick() {
  renderClock();
  for (const panel of Console.state.panels) {
    if (panel.ticks && link.views.size) panel.render(new Set());
  }
}

function start() {
  $("form").addEventListener("submit", onSubmit);
  for (const button of $("tabs").children) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  showTab(state.place.tab ?? "wildcard");
  renderView();
  const key = takeKey(KEY_STORE);
  if (!key) {
    setConnection("refused", "No key");
    showGate("No key", "Open this page with the tablet link from the technician: " +
      `${location.origin}/tablet?key=…`);
    return;
  }
  connect(key);
  Console.start(link);
  setInterval(tick, TICK_MS);
}

start();
