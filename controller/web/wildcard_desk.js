// @ts-check
/* The Rewards desk's Wild Card activation, on the Wild Card panel while the entry bins are open
 * (slots rules 18, 33.3, 36): a card swiped (the reader types its digits, then Enter) or typed
 * with spaces or dashes. The answer is the controller's `said`: the member's name and tickets,
 * never their full card number.
 */

import {$} from "./link.js";
import {act, link, may, panel} from "./console.js";
import {cardEnding} from "./answer_words.js";
const VIEW = "draw:wildcard";

/** "1000 001", "1000-001" -> "1000001"; anything else null (sent as typed, for the
 * controller to say what is wrong). @param {string} text */
function cardDigits(text) {
  const typed = text.trim();
  return /^\d[\d \-]*\d$/.test(typed) ? typed.replace(/\D/g, "") : null;
}

function render() {
  const d = link().doc(VIEW);
  const open = d !== undefined && d.phase === "entries" && link().now() < d.bins_close_at;
  $("wc-desk-box").hidden = !(open && may("wildcard.activate"));
}

async function activate() {
  const field = $("wc-desk-card", HTMLInputElement);
  const card = cardDigits(field.value);
  const ack = await act({box: $("wc-desk-ack"), label: "Activate at the desk",
    type: "wildcard.activate", payload: {card: card ?? field.value.trim()},
    values: card === null ? "" : cardEnding(card),
    about: {view: VIEW, key: (d) => d.phase}});
  if (ack?.ok) field.value = "";  // ready for the next member's swipe
  field.focus();
}

$("wc-desk-activate").addEventListener("click", activate);
$("wc-desk-card").addEventListener("keydown", (event) => {
  if (event.key !== "Enter") return;
  event.preventDefault();
  activate();
});
panel({name: "wildcard-desk", views: [VIEW], render, ticks: true});
