// @ts-check
/* The signature the rules ask for, drawn on the console: `askSignature({title, prompt})`
 * opens a modal sheet with a signature pad (the signature_pad library, not hand-written stroke
 * code), Clear / Cancel / Accept. Accept exports the drawing as a PNG at device pixel ratio 1
 * on a transparent background, checks it here first (drawn at all, two strokes, size), sends
 * it to POST /signatures and resolves with the controller's reference to it (the
 * `signature` a command carries); Cancel resolves null. A refusal is shown as the
 * controller's sentence and the pad stays open to sign again (docs/signatures.md).
 *
 * The sheet is built on first use, so any panel can ask for a signature.
 */

import SignaturePad from "/vendor/signature_pad.js";

/** @typedef {{sha256: string, media_type: "image/png", bytes: number, width: number,
 *   height: number, strokes: number}} SignatureRef the controller's reference to a signature */

// the limits of controller/domain/signatures.py, checked again by the controller
const MAX_BYTES = 48 * 1024;
const MIN_STROKES = 2;
const MIN_WIDTH = 120;
const MIN_HEIGHT = 40;
const MAX_WIDTH = 2400;
const MAX_HEIGHT = 1200;

/** @type {string | null} a key (a page opened with ?key=); null: the login session's cookie */
let sendKey = null;

/** Send signatures with this key (a console opened with a key) instead of the login session.
 * @param {string | null} key */
export function useKey(key) {
  sendKey = key;
}

/** @type {{sheet: HTMLElement, title: HTMLElement, prompt: HTMLElement,
 *   canvas: HTMLCanvasElement, answer: HTMLElement, clear: HTMLButtonElement,
 *   cancel: HTMLButtonElement, accept: HTMLButtonElement} | null} */
let parts = null;

/** @param {string} tag @param {string} className @param {string} [text] */
function make(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** @param {string} text @param {string} className */
function button(text, className) {
  const node = /** @type {HTMLButtonElement} */ (make("button", className, text));
  node.type = "button";
  return node;
}

function build() {
  const sheet = make("div", "sheet signature-sheet");
  sheet.id = "signature-sheet";
  sheet.setAttribute("role", "dialog");
  sheet.setAttribute("aria-modal", "true");
  sheet.setAttribute("aria-labelledby", "signature-title");
  sheet.hidden = true;
  const card = make("div", "sheet-card signature-card");
  const title = make("p", "sheet-question");
  title.id = "signature-title";
  const prompt = make("p", "sheet-detail");
  const canvas = /** @type {HTMLCanvasElement} */ (make("canvas", "signature-pad"));
  canvas.setAttribute("aria-label", "Sign here");
  const answer = make("p", "signature-answer");
  answer.setAttribute("role", "status");
  answer.setAttribute("aria-live", "assertive");
  const row = make("div", "row");
  const clear = button("Clear", "big");
  const cancel = button("Cancel", "big");
  const accept = button("Accept", "big primary");
  row.append(clear, cancel, accept);
  card.append(title, prompt, canvas, answer, row);
  sheet.append(card);
  document.body.append(sheet);
  parts = {sheet, title, prompt, canvas, answer, clear, cancel, accept};
  return parts;
}

/** The canvas drawn at ratio 1: as many pixels as it has CSS pixels, within the limits.
 * @param {HTMLCanvasElement} canvas */
function sizeCanvas(canvas) {
  canvas.width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.round(canvas.offsetWidth)));
  canvas.height = Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.round(canvas.offsetHeight)));
}

/** @param {HTMLCanvasElement} canvas @returns {Promise<Blob | null>} */
function png(canvas) {
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

/** POST the image; the reference, or the controller's sentence.
 * @param {Blob} image @param {number} strokes
 * @returns {Promise<{ref: SignatureRef} | {message: string}>} */
async function send(image, strokes) {
  /** @type {Record<string, string>} */
  const headers = {"Content-Type": "image/png", "X-Signature-Strokes": String(strokes)};
  if (sendKey !== null) headers["X-Showrunner-Key"] = sendKey;
  try {
    const response = await fetch("/signatures", {method: "POST", body: image, headers,
                                                 credentials: "same-origin"});
    const answer = await response.json();
    if (answer.ok) return {ref: answer.signature};
    return {message: answer.error?.message ?? "The signature was refused."};
  } catch {
    return {message: "The controller did not answer: check the connection and accept again."};
  }
}

/** What is wrong with the drawing before it is sent, or null.
 * @param {SignaturePad} pad @param {Blob | null} image */
function problem(pad, image) {
  if (pad.isEmpty()) return "Sign on the pad first.";
  if (pad.toData().length < MIN_STROKES) {
    return `A signature needs at least ${MIN_STROKES} pen strokes: clear the pad and sign again.`;
  }
  if (image === null) return "The drawing could not be made into an image: sign again.";
  if (image.size > MAX_BYTES) {
    return "The signature is too large to keep: clear the pad and sign again, smaller.";
  }
  return null;
}

/**
 * Ask for a signature: resolves with the controller's reference to the image, or null when
 * the person cancels.
 * @param {{title: string, prompt: string}} ask
 * @returns {Promise<SignatureRef | null>}
 */
export function askSignature({title, prompt}) {
  const p = parts ?? build();
  p.title.textContent = title;
  p.prompt.textContent = prompt;
  p.answer.textContent = "";
  p.sheet.hidden = false;
  sizeCanvas(p.canvas);
  const pad = new SignaturePad(p.canvas, {penColor: "#111133", minWidth: 1, maxWidth: 3});
  return new Promise((resolve) => {
    /** @param {SignatureRef | null} result */
    const close = (result) => {
      pad.off();
      p.sheet.hidden = true;
      p.clear.onclick = p.cancel.onclick = p.accept.onclick = null;
      resolve(result);
    };
    p.clear.onclick = () => {
      pad.clear();
      p.answer.textContent = "";
    };
    p.cancel.onclick = () => close(null);
    p.accept.onclick = async () => {
      const image = pad.isEmpty() ? null : await png(p.canvas);
      const wrong = problem(pad, image);
      if (wrong !== null || image === null) {
        p.answer.textContent = wrong;
        return;
      }
      p.accept.disabled = true;
      p.answer.textContent = "Sending…";
      const sent = await send(image, pad.toData().length);
      p.accept.disabled = false;
      if ("ref" in sent) {
        close(sent.ref);
      } else {
        p.answer.textContent = sent.message;
      }
    };
  });
}
