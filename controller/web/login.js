// @ts-check
/* The login page: sends the name and password as JSON (the CSP allows no form posts); on
 * success the controller sets the session cookie and the page goes where it was sent from, or
 * to the person's home page (/tablet, /cue). */

import {$} from "./link.js";

/** Only a path on this controller (never another site) is a place to go back to.
 * @param {string} home */
function nextPage(home) {
  const next = new URLSearchParams(location.search).get("next");
  return next && /^\/[a-z]+$/.test(next) ? next : home;
}

/** @param {string} text */
function say(text) {
  $("message").textContent = text;
  $("message").hidden = false;
}

/** @param {any} event */
async function onSubmit(event) {
  event.preventDefault();
  $("submit", HTMLButtonElement).disabled = true;
  $("message").hidden = true;
  try {
    const response = await fetch("/login", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({name: $("name", HTMLInputElement).value.trim(),
        password: $("password", HTMLInputElement).value}),
      credentials: "same-origin",
    });
    const answer = await response.json();
    if (answer.ok) {
      location.assign(nextPage(answer.home));
      return;
    }
    $("password", HTMLInputElement).value = "";
    say(answer.error.message);
  } catch {
    say("The controller did not answer. Check the network and try again.");
  } finally {
    $("submit", HTMLButtonElement).disabled = false;
  }
}

/** Opened by a page moving from another controller of the show's log (leader.js) with
 * `#resume=TOKEN`: the person's session goes on here without a password. */
async function resume() {
  const token = new URLSearchParams(location.hash.slice(1)).get("resume");
  if (!token) return;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const response = await fetch("/login/resume", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({token}),
      credentials: "same-origin",
    });
    const answer = await response.json();
    if (answer.ok) {
      location.replace(nextPage(answer.home));
      return;
    }
    say(answer.error.message);
  } catch {
    say("The controller did not answer. Check the network and try again.");
  }
}

$("login").addEventListener("submit", onSubmit);
$("name").focus();
resume();
