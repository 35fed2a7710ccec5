// Rendering of MCP results and errors: content blocks (text, image, audio, resource links,
// embedded resources), structured content checked against the tool's outputSchema, and McpError
// details including the CORS diagnosis.

import { h, pretty } from "./dom.js";
import { validate } from "./validate.js";

const SAFE_MEDIA = /^(image|audio)\/[A-Za-z0-9.+-]+$/;

function dataUrl(mimeType, data) {
  return `data:${mimeType};base64,${data}`;
}

/** One content block (MCP server/tools "Tool Result"). */
export function renderBlock(block, { onOpenResource } = {}) {
  switch (block?.type) {
    case "text":
      return h("pre.text-block", {}, block.text);
    case "image":
      if (!SAFE_MEDIA.test(block.mimeType ?? "")) break;
      return h("figure.media", {}, h("img", { src: dataUrl(block.mimeType, block.data), alt: `image (${block.mimeType}) returned by the tool` }), h("figcaption", {}, block.mimeType));
    case "audio":
      if (!SAFE_MEDIA.test(block.mimeType ?? "")) break;
      return h("figure.media", {}, h("audio", { controls: true, src: dataUrl(block.mimeType, block.data), "aria-label": `audio (${block.mimeType})` }), h("figcaption", {}, block.mimeType));
    case "resource_link":
      return h(
        "div.resource-link",
        {},
        h("span.badge", {}, "resource link"),
        " ",
        h("strong", {}, block.title ?? block.name ?? ""),
        " ",
        h("code", {}, block.uri),
        block.mimeType ? h("span.hint", {}, ` ${block.mimeType}`) : null,
        block.description ? h("div.hint", {}, block.description) : null,
        onOpenResource ? h("button.small", { type: "button", onclick: () => onOpenResource(block.uri) }, "Read") : null,
      );
    case "resource":
      return renderResourceContents(block.resource ?? {}, "embedded resource");
    default:
      break;
  }
  return h("pre.json", {}, pretty(block));
}

/** One entry of `resources/read` contents, or an embedded resource. */
export function renderResourceContents(c, label = "contents") {
  const head = h("div.resource-head", {}, h("span.badge", {}, label), " ", h("code", {}, c.uri ?? ""), c.mimeType ? h("span.hint", {}, ` ${c.mimeType}`) : null);
  let body;
  if (typeof c.text === "string") body = h("pre.text-block", {}, c.text);
  else if (typeof c.blob === "string" && SAFE_MEDIA.test(c.mimeType ?? ""))
    body = c.mimeType.startsWith("image/") ? h("img", { src: dataUrl(c.mimeType, c.blob), alt: c.uri ?? "image" }) : h("audio", { controls: true, src: dataUrl(c.mimeType, c.blob) });
  else if (typeof c.blob === "string") body = h("p.hint", {}, `binary, ${Math.floor((c.blob.length * 3) / 4)} bytes (base64)`);
  else body = h("pre.json", {}, pretty(c));
  return h("div.resource", {}, head, body);
}

/** A `tools/call` result, with the outputSchema verdict when the tool declares one. */
export function renderToolResult(result, tool, opts = {}) {
  const parts = [];
  const isError = result?.isError === true;
  if (isError) parts.push(h("p.error-title", {}, "The tool reported an error (isError)"));
  for (const block of result?.content ?? []) parts.push(renderBlock(block, opts));
  if (result?.structuredContent !== undefined) {
    parts.push(h("h4", {}, "structuredContent"), h("pre.json.structured", {}, pretty(result.structuredContent)));
  }
  if (tool?.outputSchema && !isError) {
    const problems = result?.structuredContent === undefined ? ["no structuredContent although the tool has an outputSchema"] : validate(tool.outputSchema, result.structuredContent);
    parts.push(
      problems.length === 0
        ? h("p.verdict.ok", { role: "status" }, "✓ structuredContent matches the outputSchema")
        : h("div.verdict.bad", { role: "status" }, h("p", {}, "✗ structuredContent does not match the outputSchema:"), h("ul", {}, problems.map((p) => h("li", {}, p)))),
    );
  }
  if (parts.length === 0) parts.push(h("p.hint", {}, "(empty result)"));
  return h(`div.result${isError ? ".is-error" : ""}`, { role: isError ? "alert" : null }, parts);
}

/** The error message without the CORS diagnosis it embeds (that is shown on its own). */
export function shortMessage(err) {
  const message = err?.message ?? String(err);
  if (!err?.diagnosis) return message;
  const at = message.indexOf(err.diagnosis);
  return at > 0 ? message.slice(0, at).replace(/[:\s]+$/, "") : message;
}

/** A URL the server wants opened: the full URL and its host shown before any click (MCP
 *  client/elicitation "URL mode": show the URL, get consent); only http(s) URLs become links. */
export function urlBlock(url) {
  let parsed = null;
  try {
    parsed = new URL(url);
  } catch {
    /* shown as text */
  }
  const safe = parsed && (parsed.protocol === "https:" || parsed.protocol === "http:");
  return h(
    "div.url-block",
    {},
    safe ? h("p", {}, "Opens ", h("strong.host", {}, parsed.host), parsed.protocol === "http:" ? h("span.badge.warn", {}, "not https") : null) : h("p.bad", {}, "Not an http(s) URL; not offered as a link."),
    h("p", {}, safe ? h("a.elicit-url", { href: url, target: "_blank", rel: "noopener noreferrer" }, url) : h("code", {}, url)),
  );
}

/** -32042 "URL elicitation required" (MCP client/elicitation): the links the server asks for. */
function urlElicitations(err) {
  const list = err?.rpcCode === -32042 && Array.isArray(err?.data?.elicitations) ? err.data.elicitations : [];
  if (list.length === 0) return null;
  return h("div.url-elicitations", {}, h("p", {}, "The server needs you to open:"),
    list.map((e) => h("div", {}, e.message ? h("p", {}, e.message) : null, urlBlock(String(e.url ?? "")))),
    h("p.hint", {}, "Then call the tool again."));
}

/** An McpError (or any thrown value), with every detail the library attached. */
export function renderError(err) {
  const code = err?.code ?? "ERROR";
  const rows = [];
  for (const key of ["rpcCode", "status", "afterMs", "requested", "supported", "endpoint", "wwwAuthenticate"]) {
    if (err?.[key] !== undefined) rows.push(h("div", {}, h("dt", {}, key), h("dd", {}, typeof err[key] === "string" ? err[key] : JSON.stringify(err[key]))));
  }
  return h(
    "div.error-box",
    { role: "alert", dataset: { code } },
    h("p.error-title", {}, h("span.badge.bad", {}, code), " ", shortMessage(err)),
    err?.diagnosis ? h("div.diagnosis", {}, h("strong", {}, "CORS diagnosis: "), err.diagnosis) : null,
    urlElicitations(err),
    rows.length ? h("dl.details", {}, rows) : null,
    err?.data !== undefined ? h("pre.json", {}, pretty(err.data)) : null,
    err?.body ? h("details", {}, h("summary", {}, "response body"), h("pre", {}, err.body)) : null,
  );
}

/** Prompt messages from `prompts/get`. */
export function renderMessages(messages) {
  return h(
    "ol.messages",
    {},
    (messages ?? []).map((m) => h("li", {}, h("span.badge", {}, m.role ?? "?"), " ", renderBlock(m.content ?? {}))),
  );
}
