// @ts-check
/* The MC console's start: the key, the tabs, one panel per live moment (console.js and the
 * panel modules), and "All commands": forms built from the controller's catalogue for the
 * commands the key's role may send, with the live views beside them.
 *
 * One link to /control (link.js). Every press gets one command_id; a press that is not
 * confirmed (timeout, lost connection) is resent with the SAME id until it is, so the controller
 * applies it once. Nothing here decides a rule: the server's sentences are shown.
 */

import {$, el, Link, loadJson, saveJson, setConnection, showGate, takeKey} from "./link.js";
import {humanize} from "./words.js";
import * as Console from "./console.js";
import {commandControls, valuesOf} from "./schema_form.js";
import {showView, showViewList} from "./view_inspector.js";
import {useKey} from "./signature.js";
import "./wildcard.js";
import "./tournament.js";
import "./super9.js";
import "./roulette.js";
import "./prizes.js";
import "./takeover.js";
import "./rehearsal.js";
import "./notes.js";
import "./audit.js";
const KEY_STORE = "showrunner.tablet.key";
const PLACE_STORE = "showrunner.tablet.place";
const TICK_MS = 250;
const AUDITOR_TABS = ["audit", "prizes"];

/** @type {Link} the link to the controller, made by start() */
let link;

/** A command of the catalogue: its type, who may send it, and its payload's JSON Schema.
 * @typedef {{type: string, role: string, summary: string,
 *   payload: import("./schema_form.js").Schema}} Command */

const state = {
  /** @type {Command[]} the commands this person's role may send */
  catalogue: [],
  /** @type {import("./schema_form.js").Control[]} the open form's fields */
  controls: [],
  /** @type {{tab: string, group: string | null, command: string | null, view: string | null}} */
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
  Console.state.queries = new Set((catalogue.queries ?? []).map((q) => q.name));
  Console.state.role = catalogue.role;
  showTabsOf(catalogue.role);
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
  state.controls = commandControls(command.payload);
  $("fields").replaceChildren(...state.controls.map((c) => c.node));
  $("fields").scrollTop = 0;
  updateSendButton();
}

function updateSendButton() {
  const send = $("send", HTMLButtonElement);
  const busy = link?.pending != null;
  send.disabled = busy;
  send.textContent = busy ? "Sending…" : "Send";
}

// -- sending ---------------------------------------------------------------------------------

/** Send the form's command through the console's one renderer of answers: words (the
 * controller's `said`, else the command and the values sent), never event names or ids. */
async function onSubmit(event) {
  event.preventDefault();
  const command = selectedCommand();
  if (command === null) return;
  const label = commandLabel(command.type);
  const payload = valuesOf(state.controls);
  const values = Console.sentWords(payload);
  const sent = Console.act({box: $("ack"), label, type: command.type, payload, values,
    done: (ack) => (ack.ok && ack.said) || `${label}${values ? `: ${values}` : ""}.`});
  updateSendButton();
  const ack = await sent;
  updateSendButton();
  if (ack?.ok) renderForm();
}

// -- live views ----------------------------------------------------------------------------

function onViews(changed) {
  for (const panel of Console.state.panels) panel.render(changed);
  const views = link.views;
  if (!views.has(state.place.view ?? "")) {
    state.place.view = [...views.keys()].sort()[0] ?? null;
  }
  renderViewList(changed);
  if (changed.has(state.place.view)) renderView();
}

function renderViewList(changed = new Set()) {
  showViewList($("view-list"), link.views, state.place.view, changed, (name) => {
    state.place.view = name;
    savePlace();
    renderViewList();
    renderView();
  });
}

function renderView() {
  showView($("view-body"), link?.views.get(state.place.view ?? ""));
}

// -- tabs ------------------------------------------------------------------------------------

function showTab(tab) {
  state.place.tab = tab;
  savePlace();
  for (const button of $("tabs").querySelectorAll("button")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === tab));
  }
  for (const page of /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll(".page"))) {
    page.hidden = page.id !== `page-${tab}`;
  }
  // a panel opens at its top: the pages scroll as one, and the last panel's scroll left the
  // new one's heading out of sight under the tab bar
  document.querySelector("main.pages")?.scrollTo(0, 0);
}

/** The auditor's console is read-only: the Audit panel and the prize register (Prizes, whose
 * Pay is the operator's), none of the MC's command buttons; an operator also gets Audit
 * beside the others; a technician does not.
 * @param {string} role */
function showTabsOf(role) {
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (
    $("tabs").querySelectorAll("button"))) {
    const tab = button.dataset.tab ?? "";
    button.hidden = role === "auditor" ? !AUDITOR_TABS.includes(tab)
      : tab === "audit" && role !== "operator";
  }
  $("brand-role").textContent = role === "auditor" ? "Auditor" : "MC";
  const current = $("tabs").querySelector(`button[data-tab="${state.place.tab}"]`);
  if (!(current instanceof HTMLButtonElement) || current.hidden) {
    showTab(role === "auditor" ? "audit" : "wildcard");
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
  for (const button of $("tabs").querySelectorAll("button")) {
    button.addEventListener("click", () => showTab(button.dataset.tab ?? "wildcard"));
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
  useKey(key === "session" ? null : key);  // signatures go with the same credentials
  connect(key);
  Console.start(link);
  setInterval(tick, TICK_MS);
}

start();
