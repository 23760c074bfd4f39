// @ts-check
/* A playlist's editor in place on /screens (screens_groups.js opens it in a playlist's card):
 * its text as written on the left, wrapped never (a line of the editor is a line of the file,
 * as the problems name them), and beside it the controller's answer, each problem as "Line 8,
 * column 13: …" (pressing one takes the caret there) and how hours are written. */

import {el} from "./link.js";
import {button} from "./screens_card.js";
import {problemWords} from "./screens_playlist.js";

/**
 * @typedef {{node: HTMLElement, text: HTMLTextAreaElement, answer: HTMLElement,
 *   problems: HTMLOListElement}} Editor
 * @typedef {{line: number, column: number, message: string}} Problem
 */

/** Show `text` in an answer box: ok, error or waiting. */
export function say(/** @type {HTMLElement} */ node, /** @type {string} */ kind,
  /** @type {string} */ text) {
  node.hidden = false;
  node.dataset.kind = kind;
  node.textContent = text;
}

/** A new editor holding `text`, its buttons bound to `check`, `save` and `cancel`.
 * @param {{title: string, text: string, save: string, onCheck: () => void,
 *   onSave: () => void, onCancel: () => void}} parts @returns {Editor} */
export function editor(parts) {
  const node = el("div", "editor");
  const main = el("div", "editor-main");
  const label = el("label", null, parts.title);
  const text = el("textarea");
  text.value = parts.text;
  text.rows = Math.min(24, Math.max(8, parts.text.split("\n").length + 1));
  text.spellcheck = false;
  text.wrap = "off";
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
  const actions = el("div", "row");
  actions.append(button("Check", null, parts.onCheck),
    button(parts.save, "primary", parts.onSave), button("Cancel", null, parts.onCancel));
  main.append(label, actions);
  node.append(main, side);
  return {node, text, answer, problems};
}

/** Every problem beside the editor (none: the list hidden). @param {Editor} editor
 * @param {Problem[]} problems */
export function showProblems(editor, problems) {
  editor.problems.replaceChildren(...problems.map((p) => {
    const item = el("li");
    item.append(button(problemWords(p), "problem", () => goTo(editor.text, p.line, p.column)));
    return item;
  }));
  editor.problems.hidden = problems.length === 0;
}

/** Put the caret at a problem's line and column (its line selected from there), in sight. */
function goTo(/** @type {HTMLTextAreaElement} */ text, /** @type {number} */ line,
  /** @type {number} */ column) {
  const lines = text.value.split("\n");
  const before = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const end = Math.min(text.value.length, before + (lines[line - 1] ?? "").length);
  text.focus();
  text.setSelectionRange(Math.min(end, before + column - 1), end);
  const height = text.scrollHeight / Math.max(1, lines.length);
  text.scrollTop = Math.max(0, (line - 3) * height);
}
