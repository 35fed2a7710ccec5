// A small JSON Schema checker for showing whether a tool's `structuredContent` matches its
// `outputSchema` (MCP server/tools "Output Schema": clients SHOULD validate structured results).
// Covers the keywords tool schemas use; unknown keywords are ignored, never guessed at.

const MAX_DEPTH = 32;
const MAX_ERRORS = 20;

function pointer(root, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  let node = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

const typeOf = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
const typeMatches = (t, v) =>
  t === "integer" ? Number.isInteger(v) : t === "number" ? typeof v === "number" && Number.isFinite(v) : typeOf(v) === t;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Returns a list of problems (`"path: message"`); empty when `value` satisfies `schema`. */
export function validate(schema, value, root = schema) {
  const errors = [];
  check(schema, value, "$", root, 0, errors);
  return errors;
}

function check(schema, v, path, root, depth, errors) {
  if (errors.length >= MAX_ERRORS) return;
  const fail = (msg) => errors.push(`${path}: ${msg}`);
  if (schema === true || schema === undefined) return;
  if (schema === false) return fail("no value allowed here");
  if (typeof schema !== "object" || schema === null) return;
  if (depth > MAX_DEPTH) return fail("schema nested too deeply to check");
  if (schema.$ref !== undefined) {
    const target = pointer(root, schema.$ref);
    if (target === undefined) fail(`cannot resolve $ref ${schema.$ref}`);
    else check(target, v, path, root, depth + 1, errors);
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const ok = types.some((t) => typeMatches(t, v)) || (schema.nullable === true && v === null);
    if (!ok) return fail(`expected ${types.join(" or ")}, got ${typeOf(v)}`);
  }
  if ("const" in schema && !same(schema.const, v)) fail(`must equal ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => same(e, v))) fail(`must be one of ${JSON.stringify(schema.enum)}`);
  if (typeof v === "number") {
    if (schema.minimum !== undefined && v < schema.minimum) fail(`must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && v > schema.maximum) fail(`must be <= ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === "number" && v <= schema.exclusiveMinimum) fail(`must be > ${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === "number" && v >= schema.exclusiveMaximum) fail(`must be < ${schema.exclusiveMaximum}`);
  }
  if (typeof v === "string") {
    const len = [...v].length;
    if (schema.minLength !== undefined && len < schema.minLength) fail(`shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && len > schema.maxLength) fail(`longer than ${schema.maxLength}`);
    if (typeof schema.pattern === "string") {
      try {
        if (!new RegExp(schema.pattern, "u").test(v)) fail(`does not match /${schema.pattern}/`);
      } catch {
        /* a pattern JS cannot compile is not checked */
      }
    }
  }
  if (Array.isArray(v)) {
    if (schema.minItems !== undefined && v.length < schema.minItems) fail(`fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && v.length > schema.maxItems) fail(`more than ${schema.maxItems} items`);
    if (schema.items && !Array.isArray(schema.items)) v.forEach((x, i) => check(schema.items, x, `${path}[${i}]`, root, depth + 1, errors));
  }
  if (typeOf(v) === "object") {
    for (const key of Array.isArray(schema.required) ? schema.required : []) {
      if (!(key in v)) fail(`missing required property "${key}"`);
    }
    const props = schema.properties ?? {};
    for (const [key, x] of Object.entries(v)) {
      if (key in props) check(props[key], x, `${path}.${key}`, root, depth + 1, errors);
      else if (schema.additionalProperties === false) fail(`unexpected property "${key}"`);
      else if (typeof schema.additionalProperties === "object") check(schema.additionalProperties, x, `${path}.${key}`, root, depth + 1, errors);
    }
  }
  if (Array.isArray(schema.allOf)) schema.allOf.forEach((s) => check(s, v, path, root, depth + 1, errors));
  const passes = (s) => {
    const e = [];
    check(s, v, path, root, depth + 1, e);
    return e.length === 0;
  };
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some(passes)) fail("matches none of anyOf");
  if (Array.isArray(schema.oneOf) && schema.oneOf.filter(passes).length !== 1) fail("must match exactly one of oneOf");
  if (schema.not !== undefined && passes(schema.not)) fail("must not match the 'not' schema");
}
