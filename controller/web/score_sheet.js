// @ts-check
/* A score signed for on the console (poker rules 20, 35, 51; roulette rule 18): the player
 * signs on the pad for the score as the operator's view shows it, and the acknowledgement is
 * sent with the signature's reference. A heat's score sheet lists who has signed and who not.
 * Only "signed" or "not signed" and the signer's name are ever shown: never the signature.
 */

import {el} from "./link.js";
import {act, button, grouped, may} from "./console.js";
import {askSignature} from "./signature.js";

/** The rule that asks for the signature, by promotion and stage (for the pad's words). */
const RULES = {poker: {qualifying: "rule 20", semi: "rule 35", final: "rule 51"},
  roulette: {qualifying: "rule 18", final: "rule 18"}};

/** An entry as the operator's view gives it.
 * @typedef {{entry: string, name: string, signer: string, stage: string, score: number | null,
 *   status: string, signed: boolean} & Record<string, any>} Entry */

/** Whether this entry's score waits for its player's signature.
 * @param {Entry} e */
export function unsigned(e) {
  return e.status === "active" && e.score !== null && !e.signed;
}

/** Ask the player to sign for their score, then acknowledge it.
 * @param {string} promotion @param {Entry} e @param {HTMLElement} box */
export async function signScore(promotion, e, box) {
  if (e.score === null) return null;
  const score = grouped(e.score);
  const rule = RULES[promotion]?.[e.stage] ?? "the rules";
  const ref = await askSignature({
    title: `${e.signer}: score ${score}`,
    prompt: `${e.signer}, sign below to acknowledge your score of ${score} (${rule}).`});
  if (ref === null) return null;
  return act({box, label: "Sign score", type: `${promotion}.acknowledge_score`,
    payload: {entry: e.entry, score: e.score, signature: ref},
    values: `${e.signer} · ${score} · signed`,
    done: () => `${e.signer} signed for ${score}.`});
}

/** The score sheet of a heat: each scored player, signed or not, with "Sign score" for the
 * ones who have not.
 * @param {string} promotion @param {Entry[]} seats @param {HTMLElement} box */
export function scoreSheet(promotion, seats, box) {
  const list = el("ul", "score-sheet");
  const scored = seats.filter((s) => s.status === "active" && s.score !== null)
    .sort((a, b) => (a.seat ?? 0) - (b.seat ?? 0));
  for (const e of scored) {
    const item = el("li", e.signed ? "signed" : "unsigned");
    item.append(el("span", "sheet-name", e.signer),
      el("span", "sheet-score", grouped(e.score ?? 0)),
      el("span", "sheet-state", e.signed ? "Signed" : "Not signed"));
    if (!e.signed && may(`${promotion}.acknowledge_score`)) {
      item.append(button("Sign score", "big", () => signScore(promotion, e, box)));
    }
    list.append(item);
  }
  return list;
}
