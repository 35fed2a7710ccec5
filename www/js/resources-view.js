// The Resources tab (MCP server/resources): list, read, and templates whose variables the user
// fills in (RFC 6570 expansion, levels 1-3 without value modifiers).

import { h, replace, nextId } from "./dom.js";
import { renderError, renderResourceContents } from "./render.js";

const OPERATORS = {
  "": { first: "", sep: ",", named: false, reserved: false },
  "+": { first: "", sep: ",", named: false, reserved: true },
  "#": { first: "#", sep: ",", named: false, reserved: true },
  ".": { first: ".", sep: ".", named: false, reserved: false },
  "/": { first: "/", sep: "/", named: false, reserved: false },
  ";": { first: ";", sep: ";", named: true, reserved: false, ifEmpty: "" },
  "?": { first: "?", sep: "&", named: true, reserved: false, ifEmpty: "=" },
  "&": { first: "&", sep: "&", named: true, reserved: false, ifEmpty: "=" },
};

const encode = (v, reserved) => (reserved ? encodeURI(v).replace(/%25([0-9A-Fa-f]{2})/g, "%$1") : encodeURIComponent(v));

/** Variable names in a URI template, in order. */
export function templateVariables(template) {
  const names = [];
  for (const [, expr] of template.matchAll(/\{([^}]*)\}/g)) {
    const body = expr[0] in OPERATORS && expr[0] !== "" ? expr.slice(1) : expr;
    for (const v of body.split(",")) {
      const name = v.replace(/[*]|:\d+$/g, "").trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** Expands `template` with string `values` (undefined or "" values are left out). */
export function expandTemplate(template, values) {
  return template.replace(/\{([^}]*)\}/g, (_, expr) => {
    const op = expr[0] in OPERATORS && expr[0] !== "" ? expr[0] : "";
    const spec = OPERATORS[op];
    const parts = [];
    for (const v of (op ? expr.slice(1) : expr).split(",")) {
      const name = v.replace(/[*]|:\d+$/g, "").trim();
      const value = values[name];
      if (value === undefined || value === "") continue;
      const enc = encode(value, spec.reserved);
      parts.push(spec.named ? `${name}=${enc}` : enc);
    }
    return parts.length ? spec.first + parts.join(spec.sep) : "";
  });
}

export function renderResources(panel, server) {
  const client = server?.client;
  if (!server || !client) return replace(panel, h("p.hint", {}, server ? `Connect ${server.name} to see its resources.` : "Add or select a server."));
  if (!client.capabilities?.resources) return replace(panel, h("p.hint", {}, `${server.name} does not offer resources.`));
  const out = h("div.read-output", { "aria-live": "polite" });
  const read = async (uri) => {
    replace(out, h("p.hint", {}, `reading ${uri}…`));
    try {
      const r = await client.readResource(uri);
      replace(out, h("h3", {}, "Contents"), (r.contents ?? []).map((c) => renderResourceContents(c)));
    } catch (err) {
      replace(out, renderError(err));
    }
  };
  const resList = h("ul.resource-list", { "aria-label": "Resources" }, h("li.hint", {}, "loading…"));
  const tplList = h("ul.template-list", { "aria-label": "Resource templates" }, h("li.hint", {}, "loading…"));
  replace(panel, h("div.resources", {},
    h("div.col", {}, h("h3", {}, "Resources"), resList, h("h3", {}, "Templates"), tplList),
    h("div.col", {}, out)));
  client.listResources().then(
    (list) => replace(resList, list.length ? list.map((r) => h("li", {},
      h("button.small", { type: "button", onclick: () => read(r.uri), "aria-label": `Read ${r.name}` }, "Read"), " ",
      h("strong", {}, r.title ?? r.name), " ", h("code", {}, r.uri), r.mimeType ? h("span.hint", {}, ` ${r.mimeType}`) : null)) : h("li.hint", {}, "none")),
    (err) => replace(resList, h("li", {}, renderError(err))),
  );
  client.listResourceTemplates().then(
    (list) => replace(tplList, list.length ? list.map((t) => templateForm(t, read)) : h("li.hint", {}, "none")),
    (err) => replace(tplList, h("li", {}, renderError(err))),
  );
}

function templateForm(t, read) {
  const vars = templateVariables(t.uriTemplate);
  const inputs = vars.map((name) => [name, h("input", { id: nextId("tpl"), required: true, autocomplete: "off" })]);
  const preview = h("code.preview");
  const update = () => { preview.textContent = expandTemplate(t.uriTemplate, Object.fromEntries(inputs.map(([n, i]) => [n, i.value]))); };
  const form = h("form.template", { "aria-label": `Template ${t.name}` },
    h("strong", {}, t.title ?? t.name), " ", h("code", {}, t.uriTemplate),
    t.description ? h("div.hint", {}, t.description) : null,
    inputs.map(([name, input]) => h("div.field.inline", {}, h("label", { for: input.id }, name), input)),
    h("div", {}, "→ ", preview),
    h("button.small", { type: "submit" }, "Read"));
  form.addEventListener("input", update);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    update();
    read(preview.textContent);
  });
  update();
  return h("li", {}, form);
}
