// @ts-check
/* Each group's playlists on /screens: what the group plays now, each playlist's scenes and
 * hours in words (screens_playlist.js), an editor in place with the controller's checks beside
 * it (the same file:line:column problems as `showrunner validate`), taking a playlist off after
 * a confirmation, and the group's latest changes, who and when.
 *
 * Built from the `group_playlists` answer (controller/screens/groups.py). A group's block is
 * rebuilt only when the words it shows changed, and an open editor (its text, its answer and
 * problems) or confirmation is carried into the rebuilt block, so a report never eats a press
 * or a half-typed edit. */

import {el} from "./link.js";
import {button} from "./screens_card.js";
import {changeWords, hoursWords, momentWords, nowWords, problemWords, sceneWords, stateWords,
  thenWords} from "./screens_playlist.js";

const CHANGES_SHOWN = 5;

/**
 * @typedef {import("./screens_playlist.js").Group} Group
 * @typedef {import("./screens_playlist.js").Playlist} Playlist
 * @typedef {{send: (type: string, payload: object, answer: HTMLElement, done: string)
 *   => Promise<any>, check: (file: string, yaml: string) => Promise<any>,
 *   now: () => number, venue: () => string | undefined}} Hooks
 * @typedef {{root: HTMLElement, answer: HTMLElement, now: HTMLElement, body: HTMLElement,
 *   sig: string, group: Group}} Block
 * @typedef {{node: HTMLElement, text: HTMLTextAreaElement, answer: HTMLElement,
 *   problems: HTMLOListElement}} Editor
 */

/** Show `text` in an answer box: ok, error or waiting. */
export function say(/** @type {HTMLElement} */ node, /** @type {string} */ kind,
  /** @type {string} */ text) {
  node.hidden = false;
  node.dataset.kind = kind;
  node.textContent = text;
}

const keyOf = (/** @type {string} */ group, /** @type {string} */ name) => `${group}\n${name}`;
const plural = (/** @type {number} */ n, /** @type {string} */ word) =>
  `${n} ${word}${n === 1 ? "" : "s"}`;

export class Groups {
  /** @param {HTMLElement} root @param {HTMLElement} empty @param {Hooks} hooks */
  constructor(root, empty, hooks) {
    this.root = root;
    this.empty = empty;
    this.hooks = hooks;
    /** @type {Map<string, Block>} */
    this.blocks = new Map();
    /** @type {Map<string, Editor>} open editors, by group and playlist */
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

  /** What a group's block shows: equal, nothing to rebuild. Its times are in the venue's
   * words ("Saturday 20:00"), and the scene a playlist plays is left out: the block names
   * the playlist, and is not rebuilt at each scene. @param {Group} group */
  words(group) {
    const at = (/** @type {number} */ ms) => momentWords(ms, this.hooks.now(), this.hooks.venue());
    const shown = (/** @type {import("./screens_playlist.js").Now} */ now) =>
      now.kind === "playlist" ? {...now, scene: ""} : now;
    return [group.group, group.screens, shown(group.now), this.hooks.venue(),
      group.playlists.map((p) => ({...p, then: shown(p.then), next_ms: p.next_ms && at(p.next_ms),
        last: p.last && {...p.last, at_ms: at(p.last.at_ms)}})),
      group.changes.slice(0, CHANGES_SHOWN).map((c) => [changeWords(c), at(c.at_ms)])];
  }

  make(/** @type {string} */ group) {
    const root = el("article", "group");
    root.dataset.group = group;
    const head = el("div", "group-head");
    head.append(el("h3", null, `Group ${group}`));
    const now = el("p", "now");
    const answer = el("p", "answer");
    answer.setAttribute("role", "status");
    answer.hidden = true;
    const body = el("div", "group-body");
    root.append(head, now, answer, body);
    /** @type {Block} */
    const block = {root, answer, now, body, sig: "", group: /** @type {any} */ (null)};
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
    const tally = block.root.querySelector(".group-head");
    tally?.querySelector(".tally")?.remove();
    tally?.append(el("span", "tally", plural(group.screens, "screen")));
    block.now.replaceChildren("Playing now: ", el("strong", null, nowWords(group.now)));
    const cards = group.playlists.map((p) => this.card(group, p, block));
    const none = el("p", "empty", "No playlist is on this group: its screens show the " +
      "default scene. Put one on below.");
    block.body.replaceChildren(...(cards.length ? cards : [none]), this.changes(group));
    const live = new Set(group.playlists.map((p) => keyOf(group.group, p.name)));
    for (const key of [...this.editors.keys()]) {
      if (key.startsWith(`${group.group}\n`) && !live.has(key)) this.editors.delete(key);
    }
    if (active instanceof HTMLElement && active !== document.activeElement
        && block.root.contains(active)) {  // moved with its editor: typing goes on
      active.focus({preventScroll: true});
      if (selection && active instanceof HTMLTextAreaElement) {
        active.setSelectionRange(selection[0], selection[1]);
      }
    }
  }

  /** The group's latest changes, newest first: "21:04 Sam put late on". @param {Group} group */
  changes(group) {
    const list = el("ol", "changes");
    list.setAttribute("aria-label", `Latest changes to the playlists of ${group.group}`);
    list.append(...group.changes.slice(0, CHANGES_SHOWN).map((change) => {
      const item = el("li");
      item.append(el("span", "when", momentWords(change.at_ms, this.hooks.now(),
        this.hooks.venue())), ` ${changeWords(change)}`);
      return item;
    }));
    const box = el("div", "history");
    box.append(el("h4", null, "Latest changes"), group.changes.length ? list
      : el("p", "empty", "None yet."));
    return box;
  }

  /** One playlist: its name, state, hours, scenes and fallback, and its actions.
   * @param {Group} group @param {Playlist} playlist @param {Block} block */
  card(group, playlist, block) {
    const key = keyOf(group.group, playlist.name);
    const at = (/** @type {number} */ ms) => momentWords(ms, this.hooks.now(), this.hooks.venue());
    const card = el("section", "playlist");
    card.dataset.playlist = playlist.name;
    card.dataset.state = playlist.state;
    const head = el("div", "playlist-head");
    head.append(el("h4", null, playlist.name),
      el("span", "state", stateWords(playlist, group.now, at)));
    const last = playlist.last;
    const meta = [playlist.file, playlist.priority ? `priority ${playlist.priority}` : "",
      last ? `${last.what === "edited" ? "changed" : "put on"} by ${last.by || "someone"} ` +
        `at ${at(last.at_ms)}` : ""].filter(Boolean).join(" \u00b7 ");
    const facts = el("dl", "plays");
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
    facts.append(el("dt", null, "Plays"), el("dd", null), el("dt", null, "Scenes"),
      el("dd", null));
    facts.children[1].append(hours);
    facts.children[3].append(scenes);
    if (playlist.fallback) {
      const words = sceneWords(playlist.fallback);
      facts.append(el("dt", null, "When none plays"), el("dd", null,
        [words.title, words.settings].filter(Boolean).join(": ")));
    }
    const actions = el("div", "row actions");
    actions.append(
      button("Edit", null, () => this.edit(group.group, playlist, card)),
      button("Take it off\u2026", "danger", () => {
        this.confirming.add(key);
        this.receive([...this.blocks.values()].map((b) => b.group));
      }));
    card.append(head, el("p", "meta", meta), facts, actions);
    if (this.confirming.has(key)) card.append(this.confirm(group, playlist, block));
    const editor = this.editors.get(key);
    if (editor) card.append(editor.node);
    return card;
  }

  /** "Take late off group stage?" with what the group shows then.
   * @param {Group} group @param {Playlist} playlist @param {Block} block */
  confirm(group, playlist, block) {
    const key = keyOf(group.group, playlist.name);
    const box = el("div", "confirm");
    const finish = group.screens === 1 ? "finishes the scene it shows"
      : "finish the scene they show";
    box.append(el("p", null, `Take ${playlist.name} off group ${group.group}? Its ` +
      `${plural(group.screens, "screen")} ${finish}, then the group ` +
      `${thenWords(playlist.then)}.`));
    const done = () => {
      this.confirming.delete(key);
      this.receive([...this.blocks.values()].map((b) => b.group));
    };
    box.append(button(`Yes, take ${playlist.name} off`, "danger", async () => {
      const ack = await this.hooks.send("playlists.unassign",
        {name: playlist.name, groups: [group.group]}, block.answer,
        `${playlist.name} comes off group ${group.group} at the end of the scene it shows: ` +
        `the group ${thenWords(playlist.then)}.`);
      block.answer.scrollIntoView({block: "nearest"});
      if (ack?.ok) this.editors.delete(key);
      done();
    }), button("Cancel", null, done));
    return box;
  }

  /** Open the editor of a playlist in its card, with its text as it plays.
   * @param {string} group @param {Playlist} playlist @param {HTMLElement} card */
  edit(group, playlist, card) {
    const key = keyOf(group, playlist.name);
    if (this.editors.has(key)) {
      this.editors.get(key)?.text.focus();
      return;
    }
    const node = el("div", "editor");
    const main = el("div", "editor-main");
    const label = el("label", null, `Text of ${playlist.name} (${playlist.file})`);
    const text = el("textarea");
    text.value = playlist.text;
    text.rows = Math.min(24, Math.max(8, playlist.text.split("\n").length + 1));
    text.spellcheck = false;
    text.wrap = "off";  // a line of the editor is a line of the file: problems name lines
    text.setAttribute("autocapitalize", "none");
    label.append(text);
    const side = el("div", "editor-side");
    const answer = el("p", "answer");
    answer.setAttribute("role", "status");
    answer.hidden = true;
    const problems = el("ol", "problems");
    problems.hidden = true;
    side.append(answer, problems, el("p", "hint", "Hours: under windows, days (daily, " +
      "weekdays, weekend or [fri, sat]), from \"20:00\" and to \"26:00\" (02:00 the next " +
      "morning). Without windows it always plays."));
    /** @type {Editor} */
    const editor = {node, text, answer, problems};
    const actions = el("div", "row");
    actions.append(
      button("Check", null, () => this.check(editor, playlist.file)),
      button(`Save and play on group ${group}`, "primary",
        () => this.save(editor, group, playlist)),
      button("Cancel", null, () => {
        this.editors.delete(key);
        node.remove();
      }));
    main.append(label, actions);
    node.append(main, side);
    this.editors.set(key, editor);
    card.append(node);
    text.focus();
  }

  /** The controller's check of the editor's text: true when it has no problem, else every
   * problem beside the editor, each one taking the caret to its line and column.
   * @param {Editor} editor @param {string} file */
  async check(editor, file) {
    editor.problems.hidden = true;
    say(editor.answer, "waiting", "Checking\u2026");
    const reply = await this.hooks.check(file, editor.text.value).catch(() => null);
    if (reply === null) {
      say(editor.answer, "error", "The controller did not answer; try again.");
      return null;
    }
    if (!reply.ok) {
      say(editor.answer, "error", reply.error.message);
      editor.problems.replaceChildren(...(reply.problems ?? []).map((p) => {
        const item = el("li");
        item.append(button(problemWords(p), "problem", () => goTo(editor.text, p.line,
          p.column)));
        return item;
      }));
      editor.problems.hidden = editor.problems.children.length === 0;
      return null;
    }
    const hours = hoursWords(/** @type {any} */ (reply), this.hooks.venue());
    say(editor.answer, "ok", `${reply.name} is fine: ${plural(reply.scenes, "scene")}, ` +
      `plays ${hours.map((h) => h.charAt(0).toLowerCase() + h.slice(1)).join("; ")}. ` +
      "Nothing is changed until you save it.");
    return reply;
  }

  /** Check, then play the edit on the group in place of the playlist it edits.
   * @param {Editor} editor @param {string} group @param {Playlist} playlist */
  async save(editor, group, playlist) {
    const yaml = editor.text.value;
    if (yaml === playlist.text) {
      say(editor.answer, "ok", "Nothing to save: the text is the one playing.");
      return;
    }
    const checked = await this.check(editor, playlist.file);
    if (!checked) return;
    const renamed = checked.name === playlist.name ? playlist.name
      : `${playlist.name} (now ${checked.name})`;
    const done = `${renamed} is changed on group ${group}: its screens play the new ` +
      "version from the end of the scene they show.";
    const ack = await this.hooks.send("playlists.assign", {file: playlist.file, yaml,
      groups: [group], replaces: playlist.name}, editor.answer, done);
    if (!ack?.ok) return;
    this.editors.delete(keyOf(group, playlist.name));
    editor.node.remove();
    const block = this.blocks.get(group);
    if (block) {
      say(block.answer, "ok", done);
      block.answer.scrollIntoView({block: "nearest"});
    }
  }
}

/** Put the caret at a problem's line and column, and show it. */
function goTo(/** @type {HTMLTextAreaElement} */ text, /** @type {number} */ line,
  /** @type {number} */ column) {
  const lines = text.value.split("\n");
  const before = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const at = Math.min(text.value.length, before + column - 1);
  text.focus();
  text.setSelectionRange(at, Math.min(text.value.length, before + (lines[line - 1] ?? "").length));
  const height = text.scrollHeight / Math.max(1, lines.length);
  text.scrollTop = Math.max(0, (line - 3) * height);
}
