// A form generated from a JSON Schema (the subset tool inputs and elicitation requests use):
// string, number, integer, boolean, enum, const, array, nested object, anyOf/oneOf, nullable
// (type lists, `nullable: true`, or a `{type: "null"}` variant), defaults, required marks and local
// `$ref`s ("#/$defs/..."). Anything else gets a raw-JSON field. Every editor is
// `{element, get(), set(value)}`; `get()` returns `undefined` for "leave this out".

import { h, nextId, pretty } from "./dom.js";

const MAX_DEPTH = 12; // nesting (and $ref recursion) bound; deeper parts become raw JSON fields

/** Thrown by `get()` when a field holds something that is not a valid value. */
export class FormError extends Error {
  constructor(path, message, input) {
    super(`${path || "value"}: ${message}`);
    this.input = input;
  }
}

/** Builds the editor for `schema`; `root` is the document local `$ref`s point into. */
export function schemaForm(schema, { root = schema, label = null } = {}) {
  return editorFor(schema, { root, depth: 0, path: "", label, required: true, top: true });
}

// ---- schema normalisation -------------------------------------------------------------------

function pointer(root, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  const parts = ref.slice(1).split("/").slice(1);
  let node = root;
  for (const raw of parts) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Follows `$ref`s (bounded), merging sibling keywords; returns null for an unresolvable ref. */
function resolve(schema, root) {
  let s = schema === true || schema === undefined ? {} : schema;
  for (let hops = 0; s && typeof s === "object" && "$ref" in s; hops++) {
    if (hops >= MAX_DEPTH) return null;
    const target = pointer(root, s.$ref);
    if (target === undefined || typeof target !== "object") return null;
    const { $ref, ...siblings } = s;
    s = { ...target, ...siblings };
  }
  return s && typeof s === "object" ? s : null;
}

const isNullSchema = (s) => s && (s.type === "null" || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === "null"));

/** Returns `{schema, nullable}` with null-ness lifted out of `type` lists and anyOf/oneOf. */
function splitNullable(s, root) {
  let nullable = s.nullable === true;
  let out = s;
  if (Array.isArray(s.type)) {
    const types = s.type.filter((t) => t !== "null");
    nullable ||= types.length < s.type.length;
    if (types.length === 1) out = { ...s, type: types[0] };
    else if (types.length > 1) {
      const { type, ...rest } = s;
      out = { ...rest, anyOf: types.map((t) => ({ type: t })) };
    }
  }
  for (const key of ["anyOf", "oneOf"]) {
    if (!Array.isArray(out[key])) continue;
    const variants = out[key].map((v) => resolve(v, root) ?? {});
    const nonNull = variants.filter((v) => !isNullSchema(v));
    if (nonNull.length === variants.length) continue;
    nullable = true;
    const { [key]: _, ...rest } = out;
    out = nonNull.length === 1 ? { ...rest, ...nonNull[0] } : { ...rest, [key]: nonNull };
  }
  out = constUnionAsEnum(out, root);
  if (Array.isArray(out.enum) && out.enum.includes(null)) {
    nullable = true;
    out = { ...out, enum: out.enum.filter((v) => v !== null) };
  }
  return { schema: out, nullable };
}

/** `oneOf`/`anyOf` of `{const, title}` only (titled enums, MCP elicitation) -> enum + names. */
function constUnionAsEnum(s, root) {
  for (const key of ["oneOf", "anyOf"]) {
    if (!Array.isArray(s[key]) || s[key].length === 0) continue;
    const variants = s[key].map((v) => resolve(v, root));
    if (!variants.every((v) => v && "const" in v)) continue;
    const { [key]: _, ...rest } = s;
    return { ...rest, enum: variants.map((v) => v.const), enumNames: variants.map((v) => v.title ?? (typeof v.const === "string" ? v.const : JSON.stringify(v.const))) };
  }
  return s;
}

function mergeAllOf(s, root) {
  if (!Array.isArray(s.allOf)) return s;
  const { allOf, ...rest } = s;
  const merged = { ...rest };
  for (const part of allOf) {
    const p = resolve(part, root);
    if (!p) return null;
    const m = mergeAllOf(p, root);
    if (!m) return null;
    if (m.properties) merged.properties = { ...(merged.properties ?? {}), ...m.properties };
    if (m.required) merged.required = [...new Set([...(merged.required ?? []), ...m.required])];
    for (const [k, v] of Object.entries(m)) if (!(k in merged)) merged[k] = v;
  }
  return merged;
}

function kindOf(s) {
  if ("const" in s) return "const";
  if (Array.isArray(s.enum)) return "enum";
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return "choice";
  if (typeof s.type === "string") return s.type;
  if (s.properties) return "object";
  if (s.items) return "array";
  return "json";
}

const typeOfValue = (v) =>
  v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;

function matches(s, value) {
  const t = typeOfValue(value);
  if ("const" in s) return JSON.stringify(s.const) === JSON.stringify(value);
  if (Array.isArray(s.enum)) return s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value));
  if (!s.type) return t === "object" ? !!s.properties : true;
  return s.type === t || (s.type === "number" && t === "integer");
}

// ---- field chrome ------------------------------------------------------------------------------

function labelText(ctx, s) {
  return s.title || ctx.label || "value";
}

function describe(s, id) {
  return s.description ? h("small.hint", { id }, s.description) : null;
}

function fieldLabel(ctx, s, forId) {
  return h(
    "label",
    { for: forId },
    labelText(ctx, s),
    ctx.required && !ctx.top ? h("span.req", { title: "required", "aria-hidden": "true" }, " *") : null,
  );
}

// ---- editors ------------------------------------------------------------------------------------

function editorFor(rawSchema, ctx) {
  const resolved = resolve(rawSchema, ctx.root);
  if (!resolved || ctx.depth > MAX_DEPTH) return jsonEditor(resolved ?? {}, ctx);
  const merged = mergeAllOf(resolved, ctx.root);
  if (!merged) return jsonEditor(resolved, ctx);
  const { schema, nullable } = splitNullable(merged, ctx.root);
  const inner = baseEditor(schema, ctx);
  const editor = nullable ? nullableEditor(inner, schema, ctx) : inner;
  if ("default" in schema && schema.default !== undefined) editor.set(schema.default);
  else if ("default" in merged && merged.default !== undefined) editor.set(merged.default);
  return editor;
}

function baseEditor(s, ctx) {
  switch (kindOf(s)) {
    case "const": return constEditor(s, ctx);
    case "enum": return enumEditor(s, ctx);
    case "choice": return choiceEditor(s, ctx);
    case "string": return stringEditor(s, ctx);
    case "number":
    case "integer": return numberEditor(s, ctx);
    case "boolean": return booleanEditor(s, ctx);
    case "array": {
      const items = resolve(s.items, ctx.root);
      const choices = items && !Array.isArray(s.items) ? constUnionAsEnum(items, ctx.root) : null;
      return Array.isArray(choices?.enum) ? multiEnumEditor(s, choices, ctx) : arrayEditor(s, ctx);
    }
    case "object": return s.properties ? objectEditor(s, ctx) : jsonEditor(s, ctx);
    default: return jsonEditor(s, ctx);
  }
}

function wrap(ctx, s, id, control, extraClass = "") {
  const descId = s.description ? `${id}-desc` : null;
  if (descId) control.setAttribute("aria-describedby", descId);
  return h(`div.field${extraClass}`, { dataset: { path: ctx.path || "(root)" } }, fieldLabel(ctx, s, id), control, describe(s, descId));
}

function constEditor(s, ctx) {
  const id = nextId();
  const out = h("output", { id }, JSON.stringify(s.const));
  return { element: wrap(ctx, s, id, out), get: () => s.const, set: () => {} };
}

function enumEditor(s, ctx) {
  const id = nextId();
  const names = Array.isArray(s.enumNames) ? s.enumNames : [];
  const select = h(
    "select",
    { id, name: ctx.path, required: ctx.required && !ctx.top },
    ctx.required ? null : h("option", { value: "" }, "(unset)"),
    s.enum.map((v, i) => h("option", { value: String(i) }, names[i] ?? (typeof v === "string" ? v : JSON.stringify(v)))),
  );
  return {
    element: wrap(ctx, s, id, select),
    get: () => (select.value === "" ? undefined : s.enum[Number(select.value)]),
    set: (v) => {
      const i = s.enum.findIndex((e) => JSON.stringify(e) === JSON.stringify(v));
      select.value = i < 0 ? "" : String(i);
    },
  };
}

const FORMAT_INPUT = { email: "email", uri: "url", url: "url", date: "date", time: "time" };

function stringEditor(s, ctx) {
  const id = nextId();
  const long = (s.maxLength ?? 0) > 200 || s.format === "textarea";
  const input = h(long ? "textarea" : "input", {
    id,
    name: ctx.path,
    type: long ? null : FORMAT_INPUT[s.format] ?? "text",
    required: ctx.required && !ctx.top,
    minlength: s.minLength,
    maxlength: s.maxLength,
    pattern: s.pattern,
    placeholder: s.examples?.[0] ?? s.format ?? null,
    autocomplete: "off",
  });
  return {
    element: wrap(ctx, s, id, input),
    get: () => (input.value === "" && !ctx.required ? undefined : input.value),
    set: (v) => { input.value = v === undefined || v === null ? "" : String(v); },
  };
}

function numberEditor(s, ctx) {
  const id = nextId();
  const input = h("input", {
    id,
    name: ctx.path,
    type: "number",
    inputmode: s.type === "integer" ? "numeric" : "decimal",
    step: s.type === "integer" ? (s.multipleOf ?? 1) : (s.multipleOf ?? "any"),
    min: s.minimum ?? s.exclusiveMinimum,
    max: s.maximum ?? s.exclusiveMaximum,
    required: ctx.required && !ctx.top,
  });
  return {
    element: wrap(ctx, s, id, input),
    get: () => {
      if (input.value.trim() === "") return undefined;
      const n = Number(input.value);
      if (!Number.isFinite(n)) throw new FormError(ctx.path, "not a number", input);
      if (s.type === "integer" && !Number.isInteger(n)) throw new FormError(ctx.path, "must be an integer", input);
      return n;
    },
    set: (v) => { input.value = typeof v === "number" ? String(v) : ""; },
  };
}

function booleanEditor(s, ctx) {
  const id = nextId();
  if (ctx.required || "default" in s) {
    const box = h("input", { id, type: "checkbox", name: ctx.path });
    const descId = s.description ? `${id}-desc` : null;
    if (descId) box.setAttribute("aria-describedby", descId);
    const element = h("div.field.check", { dataset: { path: ctx.path || "(root)" } }, box, fieldLabel(ctx, s, id), describe(s, descId));
    return { element, get: () => box.checked, set: (v) => { box.checked = v === true; } };
  }
  const select = h("select", { id, name: ctx.path }, h("option", { value: "" }, "(unset)"), h("option", { value: "true" }, "true"), h("option", { value: "false" }, "false"));
  return {
    element: wrap(ctx, s, id, select),
    get: () => (select.value === "" ? undefined : select.value === "true"),
    set: (v) => { select.value = v === true ? "true" : v === false ? "false" : ""; },
  };
}

function child(ctx, key, required, label) {
  return { ...ctx, depth: ctx.depth + 1, path: ctx.path ? `${ctx.path}.${key}` : String(key), required, label, top: false };
}

function objectEditor(s, ctx) {
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  const fields = Object.entries(s.properties).map(([key, sub]) => [key, editorFor(sub, child(ctx, key, required.has(key), key))]);
  const body = fields.map(([, e]) => e.element);
  const element = ctx.top
    ? h("div.object.top", {}, body.length ? body : h("p.hint", {}, "No arguments."))
    : h("fieldset.object", { dataset: { path: ctx.path } }, h("legend", {}, labelText(ctx, s), ctx.required ? h("span.req", { "aria-hidden": "true" }, " *") : null), describe(s, null), body);
  return {
    element,
    get: () => {
      const out = {};
      for (const [key, e] of fields) {
        const v = e.get();
        if (v !== undefined) out[key] = v;
      }
      return Object.keys(out).length === 0 && !ctx.required ? undefined : out;
    },
    set: (v) => {
      if (!v || typeof v !== "object" || Array.isArray(v)) return;
      for (const [key, e] of fields) e.set(v[key]);
    },
  };
}

function arrayEditor(s, ctx) {
  const itemSchema = Array.isArray(s.items) ? {} : s.items ?? {};
  const items = [];
  const list = h("ol.array-items");
  const add = h("button.small", { type: "button", onclick: () => addItem(undefined, true) }, "+ Add item");
  const element = h(
    "fieldset.array",
    { dataset: { path: ctx.path || "(root)" } },
    h("legend", {}, labelText(ctx, s), ctx.required && !ctx.top ? h("span.req", { "aria-hidden": "true" }, " *") : null),
    describe(s, null),
    list,
    add,
  );
  function addItem(value, focus) {
    const editor = editorFor(itemSchema, child(ctx, items.length, true, `item ${items.length + 1}`));
    if (value !== undefined) editor.set(value);
    const li = h("li", {}, editor.element);
    const entry = { editor, li };
    li.append(h("button.small.remove", { type: "button", "aria-label": `Remove ${labelText(ctx, s)} item`, onclick: () => {
      items.splice(items.indexOf(entry), 1);
      li.remove();
      add.focus();
    } }, "Remove"));
    items.push(entry);
    list.append(li);
    if (focus) li.querySelector("input, select, textarea")?.focus();
  }
  return {
    element,
    get: () => {
      const out = items.map((i) => i.editor.get()).filter((v) => v !== undefined);
      return out.length === 0 && !ctx.required ? undefined : out;
    },
    set: (v) => {
      for (const i of items.splice(0)) i.li.remove();
      if (Array.isArray(v)) v.forEach((x) => addItem(x, false));
    },
  };
}

/** An array of enum values: one checkbox per value. */
function multiEnumEditor(s, items, ctx) {
  const names = Array.isArray(items.enumNames) ? items.enumNames : [];
  const boxes = items.enum.map((v, i) => {
    const id = nextId();
    return { v, box: h("input", { id, type: "checkbox", name: ctx.path }), label: names[i] ?? (typeof v === "string" ? v : JSON.stringify(v)), id };
  });
  const element = h(
    "fieldset.multi-enum",
    { dataset: { path: ctx.path || "(root)" } },
    h("legend", {}, labelText(ctx, s), ctx.required && !ctx.top ? h("span.req", { "aria-hidden": "true" }, " *") : null),
    describe(s, null),
    h("div.options", {}, boxes.map(({ box, label, id }) => h("span.option", {}, box, h("label", { for: id }, label)))),
  );
  return {
    element,
    get: () => {
      const out = boxes.filter((b) => b.box.checked).map((b) => b.v);
      return out.length === 0 && !ctx.required ? undefined : out;
    },
    set: (value) => {
      const wanted = Array.isArray(value) ? value.map((x) => JSON.stringify(x)) : [];
      for (const b of boxes) b.box.checked = wanted.includes(JSON.stringify(b.v));
    },
  };
}

function choiceEditor(s, ctx) {
  const key = Array.isArray(s.oneOf) ? "oneOf" : "anyOf";
  const { [key]: variantsRaw, ...base } = s;
  const variants = variantsRaw.map((v) => {
    const r = resolve(v, ctx.root) ?? {};
    return { ...base, title: undefined, description: undefined, ...r };
  });
  const id = nextId();
  const select = h(
    "select",
    { id, "aria-label": `${labelText(ctx, s)}: variant` },
    ctx.required ? null : h("option", { value: "" }, "(unset)"),
    variants.map((v, i) => h("option", { value: String(i) }, v.title ?? (v.type ? String(v.type) : "const" in v ? JSON.stringify(v.const) : `option ${i + 1}`))),
  );
  const slot = h("div.variant");
  let current = null;
  const show = () => {
    current = select.value === "" ? null : editorFor(variants[Number(select.value)], { ...ctx, depth: ctx.depth + 1, top: false, label: "value" });
    slot.replaceChildren(...(current ? [current.element] : []));
  };
  select.addEventListener("change", show);
  show();
  const element = h("fieldset.choice", { dataset: { path: ctx.path || "(root)" } }, h("legend", {}, labelText(ctx, s), ctx.required && !ctx.top ? h("span.req", { "aria-hidden": "true" }, " *") : null, ` (${key})`), describe(s, null), select, slot);
  return {
    element,
    get: () => current?.get(),
    set: (v) => {
      if (v === undefined) return;
      const i = variants.findIndex((variant) => matches(variant, v));
      if (i < 0) return;
      select.value = String(i);
      show();
      current.set(v);
    },
  };
}

function nullableEditor(inner, s, ctx) {
  const id = nextId();
  const box = h("input", { id, type: "checkbox" });
  const toggle = () => {
    for (const el of inner.element.querySelectorAll("input, select, textarea, button")) el.disabled = box.checked;
  };
  box.addEventListener("change", toggle);
  const element = h("div.nullable", {}, inner.element, h("div.field.check.null-toggle", {}, box, h("label", { for: id }, `${labelText(ctx, s)} is null`)));
  return {
    element,
    get: () => (box.checked ? null : inner.get()),
    set: (v) => {
      box.checked = v === null;
      if (v !== null) inner.set(v);
      toggle();
    },
  };
}

function jsonEditor(s, ctx) {
  const id = nextId();
  const area = h("textarea.json", { id, name: ctx.path, rows: 3, spellcheck: "false", placeholder: "JSON value" });
  const element = wrap(ctx, { ...s, description: [s.description, "(any JSON)"].filter(Boolean).join(" ") }, id, area);
  return {
    element,
    get: () => {
      area.setCustomValidity("");
      if (area.value.trim() === "") return undefined;
      try {
        return JSON.parse(area.value);
      } catch (e) {
        area.setCustomValidity("Not valid JSON");
        throw new FormError(ctx.path, `invalid JSON (${e.message})`, area);
      }
    },
    set: (v) => { area.value = v === undefined ? "" : pretty(v); },
  };
}
