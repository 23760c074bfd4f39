// @ts-check
/* Forms built from a JSON Schema (the controller's catalogue): one labelled input per field of
 * a command's payload (All commands) or of a scene's parameters (a takeover), each able to read
 * back its JSON value. What the page cannot read as a number or JSON is sent as typed, so the
 * controller says in words what is wrong; nothing here checks a rule. A `signature` field is
 * a "Sign…" button that opens the signature pad (signature.js): nobody types a signature.
 */

import {el} from "./link.js";
import {askSignature} from "./signature.js";
import {humanize} from "./words.js";

/** The part of JSON Schema the catalogue uses.
 * @typedef {{type?: string, anyOf?: Schema[], enum?: (string | number)[], default?: unknown,
 *   minimum?: number, maximum?: number, maxLength?: number, pattern?: string, items?: Schema,
 *   properties?: Record<string, Schema>, required?: string[], nullable?: boolean}} Schema */
/** A field's input in the page, and how to read its value (undefined: not given).
 * @typedef {{name: string, node: HTMLElement, read: () => unknown}} Control */
/** @typedef {Omit<Schema, "required"> & {name: string, required: boolean}} Field */

/** A scene's fields by the words on the floor. */
const SCENE_LABELS = /** @type {Record<string, string>} */ ({body: "Text", title: "Title"});
const SCENE_HIDDEN = new Set(["view"]); // which view a scene reads is the technician's business

/** The payload's controls: one per field of a command's payload schema, ids `field-<name>`.
 * @param {Schema} schema @returns {Control[]} */
export function commandControls(schema) {
  return fieldsOf(schema).map(fieldControl);
}

/** The takeover's controls: one per parameter of a scene, ids `sc-field-<name>`; an empty one
 * leaves the scene's own default (shown as the placeholder).
 * @param {Schema} schema @returns {Control[]} */
export function sceneControls(schema) {
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => !SCENE_HIDDEN.has(name))
    .map(([name, property]) => sceneControl(name, nonNull(property)));
}

/** The values given, by field name (fields left empty are left out).
 * @param {Control[]} controls @returns {Record<string, unknown>} */
export function valuesOf(controls) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const {name, read} of controls) {
    const value = read();
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The payload's fields from its JSON Schema: name, property (nullable unwrapped), required.
 * @param {Schema} schema @returns {Field[]} */
function fieldsOf(schema) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => (
    {...nonNull(property), name, required: required.has(name)}));
}

/** `{anyOf: [X, {type: "null"}], default}` -> X with the default: an optional value.
 * @param {Schema} property @returns {Schema} */
function nonNull(property) {
  const options = (property.anyOf ?? []).filter((option) => option.type !== "null");
  if (options.length !== 1) return property;
  const {anyOf, ...rest} = property;
  return {...options[0], ...rest, nullable: true};
}

/** One labelled input per payload field; `read()` gives its JSON value or undefined.
 * @param {Field} field @returns {Control} */
function fieldControl(field) {
  const id = `field-${field.name}`;
  const wrap = el("div", "field");
  const label = el("label", "field-label", humanize(field.name));
  label.htmlFor = id;
  if (!field.required) label.append(el("span", "optional", "optional"));
  wrap.append(label);
  const {input, read} = field.name === "signature" ? signatureInput(wrap)
    : field.type === "boolean" ? switchInput(field, wrap)
      : field.enum ? selectInput(field, field.enum)
        : textInput(field);
  input.id = id;
  input.name = field.name;
  if (field.required) input.setAttribute("aria-required", "true");
  wrap.append(input);
  return {name: field.name, node: wrap, read};
}

/** The signature: signed on the pad when "Sign…" is pressed; its reference is the value.
 * @param {HTMLElement} wrap */
function signatureInput(wrap) {
  const input = el("button", "big", "Sign…");
  input.type = "button";
  const said = el("span", "signature-state muted", "Not signed yet.");
  /** @type {unknown} */
  let ref;
  input.addEventListener("click", async () => {
    const got = await askSignature({title: "Signature",
      prompt: "The person named in this command signs below."});
    if (got === null) return;
    ref = got;
    said.textContent = "Signed.";
  });
  wrap.append(said);
  return {input, read: () => ref};
}

/** @param {Field} field @param {HTMLElement} wrap */
function switchInput(field, wrap) {
  wrap.classList.add("inline");
  const input = el("input", "switch");
  input.type = "checkbox";
  input.setAttribute("role", "switch");
  input.checked = field.default === true;
  return {input, read: () => input.checked};
}

/** An enum is a choice: its values, plus "not given" when the field is optional.
 * @param {Field} field @param {(string | number)[]} values */
function selectInput(field, values) {
  const input = el("select", "text");
  const blank = field.required || field.default !== undefined ? [] : [""];
  input.replaceChildren(...[...blank, ...values].map((value) => {
    const option = el("option", "", value === "" ? "—" : humanize(String(value)));
    option.value = String(value);
    return option;
  }));
  if (field.default !== undefined) input.value = String(field.default);
  return {input, read: () => input.value || undefined};
}

/** Text, whole numbers (with the schema's bounds) and comma-separated lists.
 * @param {Field} field */
function textInput(field) {
  const input = el("input", "text");
  input.type = "text";
  /** @type {() => unknown} */
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
    input.value = Array.isArray(field.default) ? field.default.join(", ") : String(field.default);
  }
  return {input, read};
}

/** A whole number when it is one; otherwise the text itself, so the server says what is wrong.
 * @param {string} text */
function readInteger(text) {
  const value = text.trim();
  if (value === "") return undefined;
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

/** "3, 7, 12" -> [3, 7, 12] for a list of numbers ("absent" -> null where allowed);
 * "S1, S2" -> ["S1", "S2"].
 * @param {string} text @param {boolean} numbers @param {boolean} nullable */
function readList(text, numbers, nullable) {
  const items = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) return undefined;
  if (!numbers) return items;
  return items.map((s) => (nullable && /^(absent|null)$/i.test(s) ? null : readInteger(s)));
}

/** A JSON object as typed; text that is not JSON is sent as typed for the server to name.
 * @param {string} text */
function readObject(text) {
  const value = text.trim();
  if (value === "") return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A scene parameter: a text box (a long text a text area), its default as the placeholder.
 * @param {string} name @param {Schema} property @returns {Control} */
function sceneControl(name, property) {
  const id = `sc-field-${name}`;
  const wrap = el("div", "stack");
  const label = el("label", "field-label", SCENE_LABELS[name] ?? humanize(name));
  label.htmlFor = id;
  const long = property.type === "string" && (property.maxLength ?? 0) > 200;
  /** @type {HTMLInputElement | HTMLTextAreaElement} */
  let input;
  if (long) {
    input = el("textarea", "text");
    input.rows = 4;
  } else {
    input = el("input", "text");
    input.type = "text";
  }
  input.id = id;
  if (property.maxLength !== undefined) input.maxLength = property.maxLength;
  if (property.type === "number" || property.type === "integer") input.inputMode = "decimal";
  const initial = property.default;
  if (initial !== undefined && initial !== null && initial !== "") {
    input.placeholder = Array.isArray(initial) ? initial.join(", ") : String(initial);
  }
  wrap.append(label, input);
  return {name, node: wrap, read: () => readScene(input.value, property)};
}

/** The typed value, or undefined for the scene's own default; numbers that are not numbers
 * go as typed so the controller names what is wrong.
 * @param {string} text @param {Schema} property */
function readScene(text, property) {
  const value = property.type === "string" ? text : text.trim();
  if (value.trim() === "") return undefined;
  if (property.type === "number" || property.type === "integer") {
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  if (property.type === "array") return value.split(",").map((s) => s.trim()).filter(Boolean);
  return value;
}
