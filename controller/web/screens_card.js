// @ts-check
/* One screen's detail on /screens, opened from its row: its picture, every fact of its report
 * and its actions (authorise, new picture, move, revoke). What the page showed per screen
 * before the floor outgrew one card each; the commands go through `actions` (screens.js). */

import {el, timeOfDay} from "./link.js";
import {humanize} from "./words.js";
import {mediaText} from "./screens_grid.js";

const STATUS = {pending: "Waiting for authorisation", authorised: "Authorised",
  revoked: "Revoked"};

/**
 * @typedef {{send: (type: string, payload: object, answer: HTMLElement, done: string) => any,
 *   askPicture: (screen: string, answer: HTMLElement) => any,
 *   pictureUrl: (screen: string, at: number) => string}} Actions
 */

/** "21:04:05" on the venue's clock (link.js), not this device's. */
export function clockText(/** @type {number} */ ms) {
  return timeOfDay(ms);
}

/** 95 000 ms -> "1 min", 12 000 -> "12 s", 7 300 000 -> "2 h 1 min" (unbroken). */
export function ago(/** @type {number} */ ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}\u00a0s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}\u00a0min`;
  return `${Math.floor(minutes / 60)}\u00a0h ${minutes % 60}\u00a0min`;
}

/** "Online since 21:04:10 (3 min)", "Offline since …", "Never connected". */
export function connection(row, /** @type {number} */ now) {
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

function fact(/** @type {HTMLElement} */ list, /** @type {string} */ label) {
  const value = el("dd");
  list.append(el("dt", null, label), value);
  return value;
}

export function button(/** @type {string} */ text, /** @type {string | null} */ className,
  /** @type {() => void} */ onClick) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

/** The card of `screen`, its actions bound to it; `update` fills it from a report row.
 * @param {string} screen @param {Actions} actions */
export function card(screen, actions) {
  const item = el("article", "screen");
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
  const answer = el("p", "answer");
  answer.setAttribute("role", "status");
  answer.hidden = true;
  const parts = {
    item, img, noPicture, title, label, answer,
    status: fact(facts, "Status"), online: fact(facts, "Connection"),
    group: fact(facts, "Group"), playlists: fact(facts, "Playlists"),
    scene: fact(facts, "Showing"), fps: fact(facts, "Frames a second"),
    dropped: fact(facts, "Dropped frames"), offset: fact(facts, "Clock offset"),
    media: el("p", "media-wait"),
    authorise: button("Authorise", "primary", () => actions.send("screens.authorise",
      {screen}, answer, `${screen} is authorised: it shows the show.`)),
    picture: button("New picture", null, () => actions.askPicture(screen, answer)),
    revoke: button("Revoke…", "danger", () => { confirm.hidden = false; }),
    moveRow: el("div", "row move"),
  };
  const groupInput = el("input");
  groupInput.setAttribute("aria-label", `New group for ${screen}`);
  groupInput.setAttribute("list", "known-groups");
  groupInput.autocapitalize = "none";
  groupInput.spellcheck = false;
  groupInput.placeholder = "New group";
  const move = button("Move to group", null, () => {
    const group = groupInput.value.trim();
    if (!group) {
      answer.hidden = false;
      answer.dataset.kind = "error";
      answer.textContent = "Type the group to move it to.";
      return;
    }
    actions.send("screens.move", {screen, group}, answer, `${screen} is now in ${group}.`);
  });
  parts.moveRow.append(groupInput, move);
  const confirm = el("div", "confirm");
  confirm.hidden = true;
  confirm.append(
    el("p", null, `Revoke ${screen}? It goes dark and is refused until it is enrolled ` +
      "again with a new key."),
    button(`Yes, revoke ${screen}`, "danger", () => {
      confirm.hidden = true;
      actions.send("screens.revoke", {screen, reason: "revoked from the screens page"},
        answer, `${screen} is revoked.`);
    }),
    button("Cancel", null, () => { confirm.hidden = true; }));
  const buttons = el("div", "row actions");
  buttons.append(parts.authorise, parts.picture, parts.revoke);
  const body = el("div", "screen-body");
  body.append(title, label, facts, parts.media, buttons, parts.moveRow, confirm, answer);
  item.append(picture, body);
  return parts;
}

/** @typedef {ReturnType<typeof card>} Card */

/** Fill the card from the screen's report row. @param {Card} parts @param {Actions} actions */
export function update(parts, row, /** @type {number} */ now, actions) {
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
  parts.media.textContent = mediaText(row.media);
  parts.media.hidden = parts.media.textContent === "";
  parts.authorise.hidden = row.status !== "pending";
  parts.revoke.hidden = row.status === "revoked";
  parts.moveRow.hidden = row.status === "revoked";
  parts.picture.hidden = !row.online || row.status === "revoked";
  if (row.screenshot_ms && parts.img.dataset.at !== String(row.screenshot_ms)) {
    parts.img.dataset.at = String(row.screenshot_ms);
    parts.img.src = actions.pictureUrl(row.screen, row.screenshot_ms);
    parts.img.hidden = false;
    parts.noPicture.hidden = true;
  }
}
