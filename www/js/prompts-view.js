// The Prompts tab (MCP server/prompts): list, and get with the arguments the user fills in.

import { h, replace, nextId } from "./dom.js";
import { renderError, renderMessages } from "./render.js";

export function renderPrompts(panel, server) {
  const client = server?.client;
  if (!server || !client) return replace(panel, h("p.hint", {}, server ? `Connect ${server.name} to see its prompts.` : "Add or select a server."));
  if (!client.capabilities?.prompts) return replace(panel, h("p.hint", {}, `${server.name} does not offer prompts.`));
  const out = h("div.prompt-output", { "aria-live": "polite" });
  const list = h("ul.prompt-list", { "aria-label": "Prompts" }, h("li.hint", {}, "loading…"));
  replace(panel, h("div.prompts", {}, h("div.col", {}, h("h3", {}, "Prompts"), list), h("div.col", {}, out)));
  client.listPrompts().then(
    (prompts) => replace(list, prompts.length ? prompts.map((p) => promptForm(client, p, out)) : h("li.hint", {}, "none")),
    (err) => replace(list, h("li", {}, renderError(err))),
  );
}

const COMPLETE_DELAY_MS = 150;

/** Suggestions from `completion/complete` (MCP server/utilities/completion) in a <datalist>. */
function wireCompletion(client, p, inputs) {
  if (!client.capabilities?.completions) return;
  for (const { a, input } of inputs) {
    const list = h("datalist", { id: `${input.id}-list` });
    input.setAttribute("list", list.id);
    input.after(list);
    let timer = null;
    let asked = 0;
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const ticket = ++asked;
        const others = Object.fromEntries(inputs.filter((o) => o.input !== input && o.input.value !== "").map((o) => [o.a.name, o.input.value]));
        try {
          const r = await client.complete({ type: "ref/prompt", name: p.name }, { name: a.name, value: input.value }, { arguments: others });
          if (ticket !== asked) return; // a newer keystroke asked again
          replace(list, (r.completion?.values ?? []).slice(0, 100).map((v) => h("option", { value: v })));
        } catch {
          replace(list); // no suggestions; the field still takes any text
        }
      }, COMPLETE_DELAY_MS);
    });
  }
}

function promptForm(client, p, out) {
  const inputs = (p.arguments ?? []).map((a) => ({ a, input: h("input", { id: nextId("arg"), required: a.required === true, autocomplete: "off" }) }));
  const form = h("form.prompt", { "aria-label": `Prompt ${p.name}` },
    h("strong", {}, p.title ?? p.name), p.description ? h("div.hint", {}, p.description) : null,
    inputs.map(({ a, input }) => h("div.field.inline", {},
      h("label", { for: input.id }, a.name, a.required ? h("span.req", { "aria-hidden": "true" }, " *") : null), input,
      a.description ? h("small.hint", {}, a.description) : null)),
    h("button.small", { type: "submit" }, "Get prompt"));
  wireCompletion(client, p, inputs);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const args = {};
    for (const { a, input } of inputs) if (input.value !== "") args[a.name] = input.value;
    replace(out, h("p.hint", {}, `getting ${p.name}…`));
    try {
      const r = await client.getPrompt(p.name, args);
      replace(out, h("h3", {}, p.name), r.description ? h("p", {}, r.description) : null, renderMessages(r.messages));
    } catch (err) {
      replace(out, renderError(err));
    }
  });
  return h("li", {}, form);
}
