// Server-to-client requests answered by the user: elicitation (form and URL mode), sampling and
// roots (MCP client/elicitation, client/sampling, client/roots). One modal <dialog> at a time;
// requests arriving meanwhile wait their turn.

import { h, pretty } from "./dom.js";
import { schemaForm, FormError } from "./schema-form.js";
import { renderBlock, urlBlock } from "./render.js";

let queue = Promise.resolve();

/** Runs `build(resolve)` in a modal dialog after the ones before it have closed. */
function modal(title, server, build) {
  const run = () =>
    new Promise((resolve, reject) => {
      const returnFocus = document.activeElement;
      const titleId = `dlg-title-${Math.random().toString(36).slice(2)}`;
      const dialog = h("dialog.request", { "aria-labelledby": titleId });
      let settled = false;
      const finish = (fn, value) => {
        if (settled) return;
        settled = true;
        dialog.close();
        dialog.remove();
        if (returnFocus instanceof HTMLElement && returnFocus.isConnected) returnFocus.focus();
        fn(value);
      };
      const done = (v) => finish(resolve, v);
      const fail = (e) => finish(reject, e);
      const { body, onEscape } = build(done, fail);
      dialog.append(h("h2", { id: titleId }, title), h("p.hint", {}, `from ${server}`), body);
      dialog.addEventListener("cancel", (e) => {
        e.preventDefault();
        onEscape();
      });
      document.body.append(dialog);
      dialog.showModal();
    });
  const p = queue.then(run, run);
  queue = p.catch(() => {});
  return p;
}

/** `elicitation/create`: returns `{action, content?}`. */
export function askElicitation(server, params, defaults) {
  const isUrl = params.mode === "url";
  return modal(isUrl ? "The server asks you to open a link" : "The server asks for input", server, (done) => {
    const message = h("p.message", {}, params.message ?? "");
    if (isUrl) {
      const body = h(
        "div",
        {},
        message,
        urlBlock(params.url),
        h("div.buttons", {},
          h("button.primary", { type: "button", onclick: () => done({ action: "accept" }) }, "Accept"),
          h("button", { type: "button", onclick: () => done({ action: "decline" }) }, "Decline"),
          h("button", { type: "button", onclick: () => done({ action: "cancel" }) }, "Cancel")),
      );
      return { body, onEscape: () => done({ action: "cancel" }) };
    }
    const editor = schemaForm(params.requestedSchema ?? { type: "object", properties: {} });
    if (defaults && Object.keys(defaults).length) editor.set(defaults);
    const error = h("p.form-error", { role: "alert" });
    const form = h("form.elicitation", { novalidate: false }, message, editor.element, error,
      h("div.buttons", {},
        h("button.primary", { type: "submit" }, "Accept"),
        h("button", { type: "button", onclick: () => done({ action: "decline" }) }, "Decline"),
        h("button", { type: "button", onclick: () => done({ action: "cancel" }) }, "Cancel")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!form.reportValidity()) return;
      try {
        done({ action: "accept", content: editor.get() ?? {} });
      } catch (err) {
        error.textContent = err.message;
        if (err instanceof FormError) err.input?.focus();
      }
    });
    queueMicrotask(() => form.querySelector("input, select, textarea")?.focus());
    return { body: form, onEscape: () => done({ action: "cancel" }) };
  });
}

/** `sampling/createMessage`: the user writes the assistant's reply (or refuses). */
export function askSampling(server, params) {
  return modal("The server asks for a model completion", server, (done, fail) => {
    const reply = h("textarea", { id: "sampling-reply", rows: 4, required: true });
    const model = h("input", { id: "sampling-model", value: "human-in-the-loop" });
    const form = h(
      "form",
      {},
      params.systemPrompt ? h("p", {}, h("strong", {}, "System prompt: "), params.systemPrompt) : null,
      h("ol.messages", {}, (params.messages ?? []).map((m) => h("li", {}, h("span.badge", {}, m.role ?? "?"), " ", renderBlock(m.content ?? {})))),
      h("p.hint", {}, `maxTokens ${params.maxTokens}`),
      h("div.field", {}, h("label", { for: "sampling-reply" }, "Assistant reply"), reply),
      h("div.field", {}, h("label", { for: "sampling-model" }, "Model name reported"), model),
      h("details", {}, h("summary", {}, "raw request"), h("pre.json", {}, pretty(params))),
      h("div.buttons", {},
        h("button.primary", { type: "submit" }, "Send reply"),
        h("button", { type: "button", onclick: () => fail(new Error("The user rejected the sampling request")) }, "Reject")),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!form.reportValidity()) return;
      done({ role: "assistant", content: { type: "text", text: reply.value }, model: model.value || "human-in-the-loop", stopReason: "endTurn" });
    });
    queueMicrotask(() => reply.focus());
    return { body: form, onEscape: () => fail(new Error("The user dismissed the sampling request")) };
  });
}

/** `roots/list`: the user confirms which roots (one URI a line) to share; may opt out of asking again. */
export function askRoots(server, current) {
  return modal("The server asks for your roots", server, (done, fail) => {
    const area = h("textarea", { id: "roots-list", rows: 4, spellcheck: "false" });
    area.value = current.join("\n");
    const remember = h("input", { id: "roots-remember", type: "checkbox" });
    const form = h(
      "form",
      {},
      h("div.field", {}, h("label", { for: "roots-list" }, "Roots to share (file:// URIs, one a line)"), area),
      h("div.field.check", {}, remember, h("label", { for: "roots-remember" }, "Share these without asking again (this page)")),
      h("div.buttons", {},
        h("button.primary", { type: "submit" }, "Share"),
        h("button", { type: "button", onclick: () => fail(new Error("The user refused to share roots")) }, "Refuse")),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const uris = area.value.split("\n").map((s) => s.trim()).filter(Boolean);
      done({ roots: uris.map((uri) => ({ uri, name: uri.replace(/\/+$/, "").split("/").pop() || uri })), remember: remember.checked });
    });
    queueMicrotask(() => area.focus());
    return { body: form, onEscape: () => fail(new Error("The user dismissed the roots request")) };
  });
}
