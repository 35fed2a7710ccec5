// The OAuth redirect URI of a popup sign-in (mcp-edge `openAuthorizationPopup`): hands the URL the
// authorization server sent the person back to (`code`, `state`, `iss`, or `error`) to the page
// that opened the popup, then closes. It exchanges nothing itself: the opener holds the verifier.
//
// Delivery: a BroadcastChannel (same origin; survives `Cross-Origin-Opener-Policy`, which severs
// `window.opener` when the authorization server's pages send it), and `postMessage` to the opener
// where one is left. The opener answers `…:received`; the window then closes. Without an answer
// (the opener was closed or reloaded) it stays open and says so.
const CHANNEL = "mcp-edge-oauth";
const TYPE = "mcp-edge:oauth-callback";
const message = { type: TYPE, url: location.href };
const status = document.getElementById("callback-status");

// The code must not stay in this window's address bar or history.
history.replaceState(null, "", location.pathname);

let delivered = false;
const received = (data) => {
  if (delivered || !data || data.type !== `${TYPE}:received`) return;
  delivered = true;
  status.textContent = "Signed in. You can close this window.";
  window.close();
};
let channel = null;
if (typeof BroadcastChannel === "function") {
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (e) => received(e.data);
  channel.postMessage(message);
}
window.addEventListener("message", (e) => {
  if (e.origin === location.origin) received(e.data);
});
if (window.opener) {
  try {
    window.opener.postMessage(message, location.origin);
  } catch {
    // the opener navigated elsewhere
  }
}
setTimeout(() => {
  if (!delivered) status.textContent = "The page that started the sign-in is gone: return to it and sign in again.";
}, 5000);
