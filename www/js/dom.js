// Tiny DOM helpers: h() builds elements, so the modules read as markup without a framework.

/**
 * h("button.primary", {onclick, "aria-label": "x"}, "text", child, ...)
 * The tag may carry ".class" and "#id" suffixes. Attributes starting with "on" become listeners;
 * `false`/`null`/`undefined` attributes are skipped; children may be strings, nodes, arrays or null.
 */
export function h(tag, attrs = {}, ...children) {
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const el = document.createElement(name || "div");
  for (const part of rest) {
    if (part.startsWith(".")) el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value" || key === "checked" || key === "selected" || key === "disabled") el[key] = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Appends strings, nodes and (nested) arrays; skips null/undefined/false. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces all children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let uid = 0;
/** A page-unique id for label/aria wiring. */
export const nextId = (prefix = "f") => `${prefix}-${++uid}`;

/** Pretty JSON for display. */
export const pretty = (value) => JSON.stringify(value, null, 2);

/** Formats milliseconds as "1.23 s" or "850 ms". */
export const formatMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
