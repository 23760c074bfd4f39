// @ts-check
/* The MC's notes: what the cue page must not read aloud (the rule behind a call, what to check
 * or do) is shown to the MC beside the moment it belongs to — on the Wild Card panel from the
 * `cues` view, on the Super 9 panel from `cues:super9`, on the Prizes panel the reminders
 * before a prize's deadline (`cues`). The newest first, a few at most.
 */

import {$, el} from "./link.js";
import {panel, link} from "./console.js";
const SHOWN = 3;


/** The due notes of the `cues` view's cues whose topic starts `prefix`. @param {string} prefix */
function dueNotes(prefix) {
  const cues = link().doc("cues")?.cues ?? [];
  const now = link().now();
  return cues.filter((c) => c.notes && c.topic.startsWith(prefix) && c.at_ms <= now)
    .map((c) => c.notes).reverse();
}

function super9Notes() {
  return [...(link().doc("cues:super9")?.notes ?? [])].reverse();
}

const shown = new Map(); // box id -> the notes it holds: rebuilt only when they change

/** Each note once, the newest first (two rounds' claims give the same rule-39 note).
 * @param {string} id @param {string[]} due */
function show(id, due) {
  const box = $(id);
  const notes = [...new Set(due)];
  const key = JSON.stringify(notes.slice(0, SHOWN));
  if (shown.get(id) === key) return;
  shown.set(id, key);
  box.hidden = notes.length === 0;
  box.replaceChildren(el("h3", "notes-title", "For you, not read aloud"),
    ...notes.slice(0, SHOWN).map((text) => el("p", "mc-note", text)));
}

function render() {
  show("wc-notes", dueNotes("wildcard"));
  show("pz-notes", dueNotes("prize-"));
  show("s9-notes", super9Notes());
}

panel({name: "notes", render, ticks: true});
