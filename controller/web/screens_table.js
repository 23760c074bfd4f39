// @ts-check
/* The floor's table on /screens: one row per screen, kept up to date report by report.
 *
 * Built for hundreds of screens reporting every few seconds: a report only marks the rows
 * whose shown facts changed (screens_grid.js `signature`); the marked rows are written once per
 * animation frame, cell by cell and only where the words changed; the rows are filtered and
 * reordered only when a filter, the sort or a fact they depend on changed. A thumbnail is
 * fetched only while its row is on screen (IntersectionObserver, loading="lazy"). How long
 * each report took to handle, its rows' writes included, is kept in `timings` (ms,
 * performance.now()), which the page test reads off `window.screensTimings`. */

import {el} from "./link.js";
import {KIND_BUTTONS, comparator, counts, kindOf, matches, mediaText, playingText, signature,
  stateText} from "./screens_grid.js";

const TIMINGS_KEPT = 1000;
const THUMB_MARGIN = "200px";  // start fetching a thumbnail just before its row scrolls in

/** @typedef {import("./screens_grid.js").Row} Row */
/** @typedef {import("./screens_grid.js").Filter} Filter */

/**
 * @typedef {{data: Row, sig: string, tr: HTMLTableRowElement, pick: HTMLInputElement,
 *   img: HTMLImageElement, name: HTMLButtonElement, where: HTMLElement, state: HTMLElement,
 *   group: HTMLElement, playing: HTMLElement, media: HTMLElement, inView: boolean,
 *   shown: boolean}} Line
 * @typedef {{open: (screen: string) => void, selected: (screens: Set<string>) => void,
 *   wrote: (screens: Set<string>, rearranged: boolean) => void, pictureUrl: (screen: string, at: number) => string,
 *   clock: (ms: number) => string}} Hooks
 */

/** Write `text` into `node` only if it says something else (a write costs a layout). */
function put(/** @type {HTMLElement} */ node, /** @type {string} */ text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Whether a change from `a` to `b` can move the row or change the filters' choices. */
function regroups(/** @type {Row} */ a, /** @type {Row} */ b) {
  return kindOf(a) !== kindOf(b) || a.group !== b.group || a.name !== b.name
    || a.playlists.join("\n") !== b.playlists.join("\n");
}

export class Table {
  /** @param {HTMLTableSectionElement} body @param {Hooks} hooks */
  constructor(body, hooks) {
    this.body = body;
    this.hooks = hooks;
    /** @type {Map<string, Line>} */
    this.lines = new Map();
    /** @type {Filter} */
    this.filter = {kind: "all", group: "", playlist: "", text: ""};
    this.sort = "trouble";
    /** @type {Set<string>} */
    this.selection = new Set();
    /** @type {string[]} the screens shown, in order */
    this.shown = [];
    /** @type {Set<string>} */
    this.dirty = new Set();
    this.rearrange = true;
    this.frame = 0;
    this.pendingMs = 0;  // handler time of the reports the next frame writes
    this.reported = false;
    /** @type {number[]} */
    this.timings = [];
    this.seen = new IntersectionObserver((entries) => this.onSight(entries),
      {rootMargin: THUMB_MARGIN});
  }

  /** A report of every screen (the `screens` call): mark what changed, write next frame.
   * @param {Row[]} rows */
  receive(rows) {
    const started = performance.now();
    const present = new Set();
    for (const row of rows) {
      present.add(row.screen);
      const line = this.lines.get(row.screen);
      if (line === undefined) {
        this.lines.set(row.screen, this.make(row));
        this.dirty.add(row.screen);
        this.rearrange = true;
        continue;
      }
      const sig = signature(row);
      if (sig === line.sig) continue;
      if (regroups(line.data, row)) this.rearrange = true;
      line.data = row;
      line.sig = sig;
      this.dirty.add(row.screen);
    }
    for (const [screen, line] of this.lines) {
      if (present.has(screen)) continue;
      this.seen.unobserve(line.tr);
      line.tr.remove();
      this.lines.delete(screen);
      this.selection.delete(screen);
      this.rearrange = true;
    }
    this.pendingMs += performance.now() - started;
    this.reported = true;
    this.schedule();
  }

  /** The filter or the sort changed: arrange the rows again next frame. */
  refilter() {
    this.rearrange = true;
    this.schedule();
  }

  schedule() {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  /** One frame's writes: the changed rows, then the order and the filter if they moved, then
   * what the page shows around them (hooks.wrote). */
  flush() {
    const started = performance.now();
    this.frame = 0;
    const wrote = this.dirty;
    this.dirty = new Set();
    for (const screen of wrote) {
      const line = this.lines.get(screen);
      if (line) this.write(line);
    }
    const rearranged = this.rearrange;
    if (rearranged) this.arrange();
    this.hooks.wrote(wrote, rearranged);
    if (this.reported) {  // a frame for a filter alone is not a report's
      this.timings.push(this.pendingMs + performance.now() - started);
      if (this.timings.length > TIMINGS_KEPT) this.timings.splice(0, this.timings.length / 2);
    }
    this.pendingMs = 0;
    this.reported = false;
  }

  /** @param {Row} row @returns {Line} */
  make(row) {
    const tr = el("tr");
    tr.dataset.screen = row.screen;
    const pickCell = el("td", "pick");
    const pick = el("input");
    pick.type = "checkbox";
    pick.setAttribute("aria-label", `Select ${row.screen}`);
    pick.addEventListener("change", () => {
      if (pick.checked) this.selection.add(row.screen);
      else this.selection.delete(row.screen);
      this.hooks.selected(this.selection);
    });
    const tick = el("label", "tick");  // the whole cell ticks: a finger is wider than a box
    tick.append(pick);
    pickCell.append(tick);
    const thumbCell = el("td", "thumb");
    const img = el("img");
    img.alt = "";
    img.loading = "lazy";
    img.decoding = "async";
    img.width = 96;
    img.height = 54;
    img.hidden = true;
    const frame = el("div", "frame");
    frame.append(img);
    thumbCell.append(frame);
    const who = el("td", "who");
    const name = el("button", "open", row.screen);
    name.type = "button";
    name.setAttribute("aria-label", `Open ${row.screen}`);
    const where = el("span", "where");
    who.append(name, where);
    const state = el("td", "state");
    const group = el("td", "group");
    const playingCell = el("td", "playing");
    const playing = el("span");
    const media = el("span", "media-wait");
    playingCell.append(playing, media);
    tr.append(pickCell, thumbCell, who, state, group, playingCell);
    tr.addEventListener("click", (event) => {
      if (!(event.target instanceof HTMLElement) || event.target.closest(".pick")) return;
      this.hooks.open(row.screen);
    });
    this.seen.observe(tr);
    return {data: row, sig: signature(row), tr, pick, img, name, where, state, group,
      playing, media, inView: false, shown: false};
  }

  /** Write one row's cells from its report. @param {Line} line */
  write(line) {
    const row = line.data;
    const kind = kindOf(row);
    if (line.tr.dataset.kind !== kind) line.tr.dataset.kind = kind;
    put(line.where, row.name !== row.screen ? row.name : "");
    put(line.state, stateText(row, this.hooks.clock));
    put(line.group, row.group);
    put(line.playing, playingText(row));
    put(line.media, mediaText(row.media));
    this.picture(line);
  }

  /** Fetch the row's latest thumbnail, only while the row is in sight. @param {Line} line */
  picture(line) {
    const at = line.data.screenshot_ms;
    if (!line.inView || !at || line.img.dataset.at === String(at)) return;
    line.img.dataset.at = String(at);
    line.img.src = this.hooks.pictureUrl(line.data.screen, at);
    line.img.hidden = false;
  }

  /** @param {IntersectionObserverEntry[]} entries */
  onSight(entries) {
    for (const entry of entries) {
      const screen = entry.target instanceof HTMLElement ? entry.target.dataset.screen : "";
      const line = this.lines.get(screen ?? "");
      if (!line) continue;
      line.inView = entry.isIntersecting;
      this.picture(line);
    }
  }

  /** The screens whose rows are in sight now (they are the ones asked for new pictures). */
  inSight() {
    return [...this.lines.values()].filter((l) => l.inView).map((l) => l.data);
  }

  /** Filter and sort; move rows only if the order changed. */
  arrange() {
    this.rearrange = false;
    const rows = [...this.lines.values()].map((l) => l.data);
    const kept = rows.filter((r) => matches(r, this.filter)).sort(comparator(this.sort));
    const order = kept.map((r) => r.screen);
    const keep = new Set(order);
    for (const [screen, line] of this.lines) {
      const shown = keep.has(screen);
      if (line.shown !== shown) {
        line.shown = shown;
        line.tr.hidden = !shown;
      }
    }
    if (order.join("\n") !== this.shown.join("\n")) {
      this.body.append(...order.map((screen) => this.lines.get(screen)?.tr ?? el("tr")));
    }
    this.shown = order;
  }

  /** Tick or untick every row shown. @param {boolean} on */
  selectShown(on) {
    for (const screen of this.shown) {
      if (on) this.selection.add(screen);
      else this.selection.delete(screen);
    }
    this.syncTicks();
  }

  clearSelection() {
    this.selection.clear();
    this.syncTicks();
  }

  syncTicks() {
    for (const [screen, line] of this.lines) line.pick.checked = this.selection.has(screen);
    this.hooks.selected(this.selection);
  }

  /** @returns {Row[]} every screen's latest report */
  rows() {
    return [...this.lines.values()].map((l) => l.data);
  }

  /** @param {string} screen @returns {Row | undefined} */
  row(screen) {
    return this.lines.get(screen)?.data;
  }

  /** "All 300", "Offline 12", …: the filter's buttons. */
  tally() {
    const tally = counts(this.rows());
    return /** @type {[string, string][]} */ (Object.entries(tally).map(([kind, n]) =>
      [kind, `${KIND_BUTTONS[kind]}\u00a0${n}`]));
  }
}
