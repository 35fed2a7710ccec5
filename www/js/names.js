// The `mcp__<server>__<tool>` name a model sees for a tool. Computed here until the pool provides it:
// each part keeps only [A-Za-z0-9_-] (others become "_"), runs of "_" collapse to one, leading and
// trailing "_" are trimmed, and the whole name is cut to 64 characters.

const MAX_NAME = 64;

/** Normalises one part of a qualified tool name. */
export function normalisePart(part) {
  const cleaned = String(part)
    .replace(/[^A-Za-z0-9_-]/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
  return cleaned || "unnamed";
}

/** `mcp__<server>__<tool>`, at most 64 characters. */
export function qualifiedToolName(server, tool) {
  const full = `mcp__${normalisePart(server)}__${normalisePart(tool)}`;
  return full.length <= MAX_NAME ? full : full.slice(0, MAX_NAME).replace(/_+$/, "");
}
