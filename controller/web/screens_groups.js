// @ts-check
/* Each group's playlists on /screens: what the group plays now, each playlist's scenes and
 * hours in words (screens_playlist.js), an editor in place with the controller's checks beside
 * it (screens_editor.js: the same file:line:column problems as `showrunner validate`), taking a
 * playlist off after a confirmation, the same for the playlists put on single screens of the
 * group, and the latest changes, who and when.
 *
 * Built from the `group_playlists` answer (controller/screens/groups.py). A group's block is
 * rebuilt only when the words it shows changed, and an open editor (its text, its answer and
 * problems, the focus) or confirmation is carried into the rebuilt block, so a report never
 * eats a press or a half-typed edit. */

import {el} from "./link.js";
import {button} from "./screens_card.js";
import {editor, say, showProblems} from "./screens_editor.js";
import {changeWords, hoursWords, momentWords, nowWords, sceneWords, screensWords, stateWords,
  thenWords} from "./screens_playlist.js";

const CHANGES_SHOWN = 5;

/**
 * @typedef {import("./screens_playlist.js").Group} Group
 * @typedef {import("./screens_playlist.js").Playlist} Playlist
 * @typedef {import("./screens_playlist.js").Now} Now
 * @typedef {import("./screens_editor.js").Editor} Editor
 * @typedef {{send: (type: string, payload: object, answer: HTMLElement, done: string)
 *   => Promise<any>, check: (file: string, yaml: string) => Promise<any>,
 *   now: () => number, venue: () => string | undefined}} Hooks
 * @typedef {{root: HTMLElement, answer: HTMLElement, now: HTMLElement, tally: HTMLElement,
 *   body: HTMLElement, sig: string, group: Group}} Block
 * @typedef {{kind: "group" | "screen", names: string[], screens: number, group: string}} Target
 *   where a playlist is put on: the whole group, or single screens of it
 */

const plural = (/** @type {number} */ n, /** @type {string} */ word) =>
  `${n} ${word}${n === 1 ? "" : "s"}`;
const keyOf = (/** @type {Target} */ target, /** @type {string} */ name) =>
  `${target.kind}:${target.names.join(",")}\n${name}`;
const where = (/** @type {Target} */ target) =>
  target.kind === "group" ? `group ${target.names[0]}` : screensWords(target.names);
/** The command's targets: {groups: [...]} or {screens: [...]}. */
const targets = (/** @type {Target} */ target) =>
  ({[target.kind === "group" ? "groups" : "screens"]: target.names});

export class Groups {
  /** @param {HTMLElement} root @param {HTMLElement} empty @param {Hooks} hooks */
  constructor(root, empty, hooks) {
    this.root = root;
    this.empty = empty;
    this.hooks = hooks;
    /** @type {Map<string, Block>} */
    this.blocks = new Map();
    /** @type {Map<string, {editor: Editor, group: string}>} open editors, by target and name */
    this.editors = new Map();
    /** @type {Set<string>} playlists whose take-off is being confirmed */
    this.confirming = new Set();
  }

  /** The `group_playlists` answer: rebuild the groups whose words changed, in order.
   * @param {Group[]} groups */
  receive(groups) {
    this.empty.hidden = groups.length > 0;
    const names = new Set(groups.map((g) => g.group));
    for (const [name, block] of this.blocks) {
      if (names.has(name)) continue;
      this.blocks.delete(name);
      block.root.remove();
    }
    const order = groups.map((group) => {
      const block = this.blocks.get(group.group) ?? this.make(group.group);
      block.group = group;
      const sig = JSON.stringify([this.words(group), [...this.confirming]]);
      if (sig !== block.sig) {
        block.sig = sig;
        this.fill(block);
      }
      return block.root;
    });
    if (order.some((root, i) => this.root.children[i] !== root)) {
      this.root.replaceChildren(...order);
    }
  }

  /** Rebuild every block as it is (a confirmation opened or closed). */
  redraw() {
    this.receive([...this.blocks.values()].map((b) => b.group));
  }

  /** A moment at the venue, in words ("21:04", "Saturday 20:00"). */
  at(/** @type {number} */ ms) {
    return momentWords(ms, this.hooks.now(), this.hooks.venue());
  }

  /** What a group's block shows: equal, nothing to rebuild. Its times are in the venue's
   * words, and the scene a playlist plays is left out: the block names the playlist, and is
   * not rebuilt at each scene. @param {Group} group */
  words(group) {
    const shown = (/** @type {Now} */ now) => now.kind === "playlist" ? {...now, scene: ""} : now;
    const lists = (/** @type {Playlist[]} */ playlists) => playlists.map((p) => ({...p,
      then: shown(p.then), next_ms: p.next_ms && this.at(p.next_ms),
      last: p.last && {...p.last, at_ms: this.at(p.last.at_ms)}}));
    return [group.group, group.screens, shown(group.now), this.hooks.venue(),
      lists(group.playlists), group.own.map((o) => [o.screens, shown(o.now), lists(o.playlists)]),
      group.changes.slice(0, CHANGES_SHOWN).map((c) => [changeWords(c), this.at(c.at_ms)])];
  }

  make(/** @type {string} */ group) {
    const root = el("article", "group");
    root.dataset.group = group;
    const head = el("div", "group-head");
    const tally = el("span", "tally");
    head.append(el("h3", null, `Group ${group}`), tally);
    const now = el("p", "now");
    const answer = el("p", "answer");
    answer.setAttribute("role", "status");
    answer.hidden = true;
    const body = el("div", "group-body");
    root.append(head, now, answer, body);
    /** @type {Block} */
    const block = {root, answer, now, tally, body, sig: "", group: /** @type {any} */ (null)};
    this.blocks.set(group, block);
    return block;
  }

  /** Write a group's block from its report, its editors, its answer and the focus kept.
   * @param {Block} block */
  fill(block) {
    const {group} = block;
    const active = document.activeElement;
    const selection = active instanceof HTMLTextAreaElement
      ? [active.selectionStart, active.selectionEnd] : null;
    block.tally.textContent = plural(group.screens, "screen");
    block.now.replaceChildren("Playing now: ", el("strong", null, nowWords(group.now)));
    /** @type {Target} */
    const whole = {kind: "group", names: [group.group], screens: group.screens,
      group: group.group};
    const live = new Set(group.playlists.map((p) => keyOf(whole, p.name)));
    const cards = group.playlists.map((p) => this.card(whole, group.now, p, block));
    const none = el("p", "empty", "No playlist is on this group: its screens show the " +
      "default scene. Put one on below.");
    const singles = group.own.map((own) => {
      /** @type {Target} */
      const one = {kind: "screen", names: own.screens, screens: own.screens.length,
        group: group.group};
      const section = el("section", "own");
      section.dataset.screens = own.screens.join(" ");
      section.append(el("h4", null, `Only on ${screensWords(own.screens)}`),
        el("p", "now", `Playing now on ${own.screens.length === 1 ? own.screens[0]
          : "each of them"}: ${nowWords(own.now)}`),
        ...own.playlists.map((p) => {
          live.add(keyOf(one, p.name));
          return this.card(one, own.now, p, block);
        }));
      return section;
    });
    block.body.replaceChildren(...(cards.length ? cards : [none]), ...singles,
      this.changes(group));
    for (const [key, open] of [...this.editors]) {
      if (open.group === group.group && !live.has(key)) this.editors.delete(key);
    }
    if (active instanceof HTMLElement && active !== document.activeElement
        && block.root.contains(active)) {  // moved with its editor: typing goes on
      active.focus({preventScroll: true});
      if (selection && active instanceof HTMLTextAreaElement) {
        active.setSelectionRange(selection[0], selection[1]);
      }
    }
  }

  /** The latest changes, newest first: "21:04 Sam put late on". @param {Group} group */
  changes(group) {
    const list = el("ol", "changes");
    list.append(...group.changes.slice(0, CHANGES_SHOWN).map((change) => {
      const item = el("li");
      item.append(el("span", "when", this.at(change.at_ms)), ` ${changeWords(change)}`);
      return item;
    }));
    const box = el("div", "history");
    box.append(el("h4", null, "Latest changes"), group.changes.length ? list
      : el("p", "empty", "None yet."));
    return box;
  }

  /** One playlist: its name, state, hours, scenes and fallback, and its actions.
   * @param {Target} target @param {Now} now @param {Playlist} playlist @param {Block} block */
  card(target, now, playlist, block) {
    const key = keyOf(target, playlist.name);
    const card = el("section", "playlist");
    card.dataset.playlist = playlist.name;
    card.dataset.state = playlist.state;
    const head = el("div", "playlist-head");
    head.append(el("h4", null, playlist.name),
      el("span", "state", stateWords(playlist, now, (ms) => this.at(ms))));
    const last = playlist.last;
    const meta = [playlist.file, playlist.priority ? `priority ${playlist.priority}` : "",
      last ? `${last.what === "edited" ? "changed" : "put on"} by ${last.by || "someone"} ` +
        `at ${this.at(last.at_ms)}` : ""].filter(Boolean).join(" \u00b7 ");
    const hours = el("ul", "hours");
    hours.append(...hoursWords(playlist, this.hooks.venue()).map((line) => el("li", null, line)));
    const scenes = el("ol", "scenes");
    scenes.append(...playlist.items.map((item) => {
      const words = sceneWords(item);
      const line = el("li");
      line.append(el("strong", null, words.title), el("span", "time", words.time));
      if (words.settings) line.append(el("span", "settings", words.settings));
      return line;
    }));
    const facts = el("dl", "plays");
    const fact = (/** @type {string} */ term, /** @type {Node | string} */ value) => {
      const dd = el("dd");
      dd.append(value);
      facts.append(el("dt", null, term), dd);
    };
    fact("Plays", hours);
    fact("Scenes", scenes);
    if (playlist.fallback) {
      const words = sceneWords(playlist.fallback);
      fact("When none plays", [words.title, words.settings].filter(Boolean).join(": "));
    }
    const actions = el("div", "row actions");
    actions.append(
      button("Edit", null, () => this.edit(target, playlist, card)),
      button("Take it off\u2026", "danger", () => {
        this.confirming.add(key);
        this.redraw();
      }));
    card.append(head, el("p", "meta", meta), facts, actions);
    if (this.confirming.has(key)) card.append(this.confirm(target, playlist, block));
    const open = this.editors.get(key);
    if (open) card.append(open.editor.node);
    return card;
  }

  /** "Take late off group stage?" with what it shows then; yes sends `playlists.unassign`.
   * @param {Target} target @param {Playlist} playlist @param {Block} block */
  confirm(target, playlist, block) {
    const key = keyOf(target, playlist.name);
    const whole = target.kind === "group";
    const who = whole ? "the group" : target.screens === 1 ? "it" : "each";
    const finish = target.screens === 1
      ? `${whole ? "Its 1 screen" : "It"} finishes the scene it shows`
      : `${whole ? "Its" : "These"} ${target.screens} screens finish the scene they show`;
    const box = el("div", "confirm");
    box.append(el("p", null, `Take ${playlist.name} off ${where(target)}? ${finish}, then ` +
      `${who} ${thenWords(playlist.then)}.`));
    const done = () => {
      this.confirming.delete(key);
      this.redraw();
    };
    box.append(button(`Yes, take ${playlist.name} off`, "danger", async () => {
      await this.hooks.send("playlists.unassign", {name: playlist.name, ...targets(target)},
        block.answer,
      `${playlist.name} comes off ${where(target)} at the end of the scene it shows: ${who} ` +
        `${thenWords(playlist.then)}.`);
      block.answer.scrollIntoView({block: "nearest"});
      done();
    }), button("Cancel", null, done));
    return box;
  }

  /** Open the editor of a playlist in its card, with its text as it plays.
   * @param {Target} target @param {Playlist} playlist @param {HTMLElement} card */
  edit(target, playlist, card) {
    const key = keyOf(target, playlist.name);
    const open = this.editors.get(key);
    if (open) {
      open.editor.text.focus();
      return;
    }
    const made = editor({title: `Text of ${playlist.name} (${playlist.file})`,
      text: playlist.text, save: `Save and play on ${where(target)}`,
      onCheck: () => this.check(made, playlist.file),
      onSave: () => this.save(made, target, playlist),
      onCancel: () => {
        this.editors.delete(key);
        made.node.remove();
      }});
    this.editors.set(key, {editor: made, group: target.group});
    card.append(made.node);
    made.text.focus();
  }

  /** The controller's check of the editor's text: its answer when it has no problem, else
   * null and every problem beside the editor. @param {Editor} open @param {string} file */
  async check(open, file) {
    showProblems(open, []);
    say(open.answer, "waiting", "Checking\u2026");
    const reply = await this.hooks.check(file, open.text.value).catch(() => null);
    if (reply === null) {
      say(open.answer, "error", "The controller did not answer; try again.");
      return null;
    }
    if (!reply.ok) {
      say(open.answer, "error", reply.error.message);
      showProblems(open, reply.problems ?? []);
      return null;
    }
    const hours = hoursWords(/** @type {any} */ (reply), this.hooks.venue());
    say(open.answer, "ok", `${reply.name} is fine: ${plural(reply.scenes, "scene")}, ` +
      `plays ${hours.map((h) => h.charAt(0).toLowerCase() + h.slice(1)).join("; ")}. ` +
      "Nothing is changed until you save it.");
    return reply;
  }

  /** Check, then play the edit on its target in place of the playlist it edits.
   * @param {Editor} open @param {Target} target @param {Playlist} playlist */
  async save(open, target, playlist) {
    const yaml = open.text.value;
    if (yaml === playlist.text) {
      say(open.answer, "ok", "Nothing to save: the text is the one playing.");
      return;
    }
    const checked = await this.check(open, playlist.file);
    if (!checked) return;
    const whole = target.kind === "group";
    const renamed = checked.name === playlist.name ? playlist.name
      : `${playlist.name} (now ${checked.name})`;
    const who = whole ? "its screens play" : target.screens === 1 ? "it plays" : "they play";
    const done = `${renamed} is changed on ${where(target)}: ${who} the new version from the ` +
      `end of the scene ${target.screens === 1 && !whole ? "it shows" : "they show"}.`;
    const ack = await this.hooks.send("playlists.assign", {file: playlist.file, yaml,
      ...targets(target), replaces: playlist.name}, open.answer, done);
    if (!ack?.ok) return;
    this.editors.delete(keyOf(target, playlist.name));
    open.node.remove();
    const block = this.blocks.get(target.group);
    if (block) {
      say(block.answer, "ok", done);
      block.answer.scrollIntoView({block: "nearest"});
    }
  }
}
