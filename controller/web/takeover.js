// @ts-check
/* The Screens panel: each screen group with a live thumbnail of what it shows (its screens'
 * latest screenshot, kept by the controller), a takeover with the fields of the scene picked
 * (built from the scene catalogue's JSON Schema: an announcement has a Title and a Text), and
 * Hand back to the group's playlist.
 *
 * The controller checks every value against the catalogue and says what is wrong in words.
 */

import {$, el} from "./link.js";
import {humanize} from "./words.js";
import {act, button, link, may, panel, scenes} from "./console.js";
import {sceneControls, valuesOf} from "./schema_form.js";

const OPS = "ops:screens";
const THUMB_MS = 5000;
/** @typedef {{screen: string | null, frame: HTMLElement, img: HTMLImageElement}} Thumb */

const state = {
  /** @type {string | null} the group being taken over */
  group: null,
  scene: "announcement",
  /** @type {import("./schema_form.js").Control[]} */
  controls: [],
  /** @type {Map<string, Thumb>} */
  thumbs: new Map(),
  shape: "",
};

/** group -> its screens, from the technicians' summary of every screen. */
function groups() {
  const found = new Map();
  for (const s of link().doc(OPS)?.screens ?? []) {
    if (s.status === "revoked") continue;
    if (!found.has(s.group)) found.set(s.group, []);
    found.get(s.group).push(s);
  }
  return found;
}

/** The groups with a screen showing, and whether each shows one of `scenes` now (taken over
 * with it): what another panel asks before it says "on the floor".
 * @param {string[]} scenes @returns {{group: string, showing: boolean}[]} */
export function floorShowing(scenes) {
  return [...groups()]
    .filter(([, screens]) => screens.some((s) => s.status === "authorised"))
    .map(([group, screens]) => ({group, showing: screens.some((s) =>
      s.status === "authorised" && scenes.includes(s.takeover))}));
}

/** Take `group` over with `scene`, answered in `box` (another panel's button).
 * @param {{group: string, scene: string, words: string, params: object, box: HTMLElement,
 *   about?: import("./console.js").About}} takeover */
export function showOn({group, scene, words, params, box, about}) {
  return act({box, label: "Take over", type: "takeover.start", payload: {group, scene, params},
    values: `${humanize(group)} · ${words}`, about,
    done: () => `${humanize(group)} shows the ${words} now.`});
}

function render() {
  const all = groups();
  $("sc-empty").hidden = all.size > 0;
  const shape = JSON.stringify([may("takeover.start"), ...all]);
  if (shape !== state.shape) {
    state.shape = shape;
    $("sc-groups").replaceChildren(...[...all].map(([group, screens]) => card(group, screens)));
  }
  renderForm();
}

function card(group, screens) {
  const live = screens.filter((s) => s.status === "authorised");
  const takeover = live.find((s) => s.takeover)?.takeover ?? null;
  const node = el("article", "screen-group");
  node.dataset.group = group;
  node.append(thumbnail(group, live[0]?.screen ?? null));
  const words = el("div", "screen-group-words");
  words.append(el("div", "screen-group-name", humanize(group)),
    el("div", "muted", `${live.length} of ${screens.length} screen` +
      `${screens.length === 1 ? "" : "s"} showing`),
    el("div", takeover ? "screen-group-state taken" : "screen-group-state", takeover
      ? `Taken over: ${humanize(takeover)}` : "On its playlist"));
  if (may("takeover.start")) {
    const buttons = el("div", "row");
    buttons.append(button("Take over…", "big", () => pick(group)));
    if (takeover) {
      buttons.append(button("Hand back", "big danger", () => handBack(group)));
    }
    words.append(buttons);
  }
  node.append(words);
  return node;
}

/** The group's picture, kept across renders and refreshed every few seconds. */
function thumbnail(group, screen) {
  let thumb = state.thumbs.get(group);
  if (!thumb || thumb.screen !== screen) {
    const frame = el("div", "thumb");
    const img = el("img");
    img.alt = `What ${humanize(group)} shows`;
    const none = el("span", "thumb-none", "No picture yet");
    img.addEventListener("load", () => { img.hidden = false; none.hidden = true; });
    img.addEventListener("error", () => { img.hidden = true; none.hidden = false; });
    img.hidden = true;
    frame.append(img, none);
    thumb = {screen, frame, img};
    state.thumbs.set(group, thumb);
    refresh(thumb);
  }
  return thumb.frame;
}

function refresh(thumb) {
  if (thumb.screen === null) return;
  thumb.img.src = `/screens/${encodeURIComponent(thumb.screen)}/screenshot.jpg?at=${Date.now()}`;
}

function pick(group) {
  state.group = group;
  $("sc-form").hidden = false;
  $("sc-form-title").textContent = `Take over ${humanize(group)}`;
  renderForm();
  $("sc-form").scrollIntoView({block: "nearest"});
}

// -- the takeover form, from the scene's JSON Schema ----------------------------------------

function renderForm() {
  const all = scenes();
  const select = $("sc-scene", HTMLSelectElement);
  const names = Object.keys(all).sort();
  if (select.options.length !== names.length) {
    select.replaceChildren(...names.map((name) => {
      const option = el("option", "", humanize(name));
      option.value = name;
      return option;
    }));
    select.value = state.scene;
    renderFields();
  }
}

function renderFields() {
  const schema = scenes()[state.scene];
  if (!schema) return;
  state.controls = sceneControls(schema);
  $("sc-fields").replaceChildren(...state.controls.map((c) => c.node));
}

function start() {
  const group = state.group;
  if (group === null) return;
  const params = valuesOf(state.controls);
  const scene = humanize(state.scene);
  const words = [params.title, params.body].filter(Boolean).join(" · ");
  act({box: $("sc-start-ack"), label: "Take over", type: "takeover.start",
    payload: {group, scene: state.scene, params},
    values: `${humanize(group)} · ${scene}${words ? ` · ${words}` : ""}`,
    done: () => `${humanize(group)} shows the ${scene.toLowerCase()} now.`});
}

function handBack(group) {
  act({box: $("sc-ack"), label: "Hand back", type: "takeover.end", payload: {group},
    values: humanize(group), done: () => `${humanize(group)} is back on its playlist.`});
}

$("sc-scene").addEventListener("change", () => {
  state.scene = $("sc-scene", HTMLSelectElement).value;
  renderFields();
});
$("sc-start").addEventListener("click", start);
setInterval(() => { for (const thumb of state.thumbs.values()) refresh(thumb); }, THUMB_MS);
panel({name: "screens", render});
