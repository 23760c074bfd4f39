// @ts-check
/* The view inspector of "All commands": a chip for every view the console holds (with its
 * revision, lit when it just changed) and the picked view's document, as a table when it has
 * rows. The technician sees exactly what the controller sent; nothing is interpreted.
 */

import {el} from "./link.js";
import {humanize} from "./words.js";

/** @typedef {import("./link.js").View} View */

/**
 * The chips of the views held, by name; `onPick(name)` when one is pressed.
 * @param {HTMLElement} list @param {Map<string, View>} views @param {string | null} picked
 * @param {Set<string>} changed @param {(name: string) => void} onPick
 */
export function showViewList(list, views, picked, changed, onPick) {
  const names = [...views.keys()].sort();
  list.replaceChildren(...names.map((name) => {
    const button = el("button", "view-chip");
    button.type = "button";
    button.setAttribute("aria-pressed", String(name === picked));
    button.append(el("span", "view-name", name),
      el("span", "view-rev", `rev ${views.get(name)?.revision}`));
    if (changed.has(name)) button.classList.add("fresh");
    button.addEventListener("click", () => onPick(name));
    return button;
  }));
}

/** A view's document: a table when it has rows (with its title and scalar facts above), else
 * its JSON as it came.
 * @param {HTMLElement} body @param {View | undefined} view */
export function showView(body, view) {
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
  /** @type {HTMLElement[]} */
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

/** @param {Record<string, unknown>[]} rows */
function rowsTable(rows) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  /** @param {string} column */
  const numeric = (column) => rows.every((r) => typeof r[column] === "number");
  const table = el("table", "rows");
  const headRow = el("tr");
  for (const column of columns) {
    headRow.append(el("th", numeric(column) ? "num" : null, humanize(column)));
  }
  table.append(el("thead"), el("tbody"));
  table.tHead?.append(headRow);
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

/** @param {unknown} value */
function cellText(value) {
  if (value === undefined || value === null) return "—";
  if (typeof value === "boolean") return value ? "yes" : "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
