// Credentials out of the traffic panel and its export. Every traffic record is redacted when it
// arrives, before it is stored, shown, searched or exported:
//   - credential headers (Authorization, Proxy-Authorization, Cookie, Set-Cookie, DPoP, API-key and
//     token headers) and every header the user configured for that server;
//   - credential fields in bodies and URLs: JSON string values (also inside JSON-in-a-string) and
//     form / query parameters named access_token, refresh_token, code, code_verifier,
//     client_secret, assertion, client_assertion, id_token, subject_token (and a few more);
//   - any configured header value (and a bearer token's value) wherever else it shows up.
// Response bodies arrive in chunks: each chunk is searched together with the end of the text
// before it, so a secret or a field name split across chunks is still found.

export const REDACTED = "[redacted]";

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "dpop", "x-api-key", "api-key"]);
/** Header names that say they carry a key, token, secret or password (x-goog-api-key, x-auth-token ...). */
const SECRET_HEADER_WORDS = /(^|[-_])(api[-_]?key|apikey|access[-_]?key|key|token|secret|password|passwd|credentials?|auth|session[-_]?token)($|[-_])/i;

/** Body and URL fields that carry credentials (OAuth 2.0 token and authorization requests, RFC 8693). */
export const SECRET_FIELDS = [
  "access_token", "refresh_token", "code", "code_verifier", "client_secret", "assertion", "client_assertion",
  "id_token", "subject_token", "actor_token", "device_code", "password", "registration_access_token",
];
const FIELDS = SECRET_FIELDS.join("|");
// "field": "value" (value runs to its closing quote, or to the end of the text when cut), and the
// same inside a JSON string (\"field\": \"value\"). Group 1 or 3 is the value.
const JSON_FIELD = new RegExp(`"(?:${FIELDS})"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)|\\\\"(?:${FIELDS})\\\\"\\s*:\\s*\\\\"((?:[^"\\\\]|\\\\[^"])*)`, "g");
// field=value in a form body or a query string.
const FORM_FIELD = new RegExp(`(?:^|[?&\\s])(?:${FIELDS})=([^&#\\s"]*)`, "g");

/** How much of the text before a chunk is searched with it. */
const CARRY = 16 * 1024;
/** Configured values shorter than this are not searched for in free text (their header is redacted). */
const MIN_SECRET_LENGTH = 6;
/** The shortest beginning of a configured secret masked at the very end of a chunk. */
const MIN_PARTIAL = 3;

/** Whether a header is a credential for this server: by name, or because the user configured it. */
export function isSecretHeader(name, configured = new Set()) {
  const n = name.toLowerCase();
  return SECRET_HEADERS.has(n) || configured.has(n) || (n !== "www-authenticate" && SECRET_HEADER_WORDS.test(n));
}

/** The secrets of a server's configured headers: each value, and the credential of "Scheme value". */
export function secretsOf(headers = {}) {
  const out = new Set();
  for (const value of Object.values(headers)) {
    const v = String(value).trim();
    out.add(v);
    const m = /^\S+\s+(\S.*)$/.exec(v);
    if (m) out.add(m[1].trim());
  }
  return [...out].filter((s) => s.length >= MIN_SECRET_LENGTH);
}

/** [start, end) ranges of secrets in `text`. */
function secretRanges(text, secrets) {
  const ranges = [];
  for (const re of [JSON_FIELD, FORM_FIELD]) {
    re.lastIndex = 0;
    for (let m; (m = re.exec(text)); ) {
      const value = m[1] ?? m[2] ?? "";
      if (!value) continue;
      const end = m.index + m[0].length;
      ranges.push([end - value.length, end]);
    }
  }
  for (const s of secrets) {
    for (let at = text.indexOf(s); at !== -1; at = text.indexOf(s, at + 1)) ranges.push([at, at + s.length]);
    // A chunk may end inside a secret: its beginning is masked now, the rest with the next chunk.
    for (let k = Math.min(s.length - 1, text.length); k >= MIN_PARTIAL; k--) {
      if (text.endsWith(s.slice(0, k))) {
        ranges.push([text.length - k, text.length]);
        break;
      }
    }
  }
  return ranges;
}

/** `text` with the parts of `ranges` at or after `from` replaced by one marker each. */
function mask(text, ranges, from = 0) {
  const rs = ranges
    .map(([a, b]) => [Math.max(a, from), b])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let out = "";
  let at = from;
  for (const [a, b] of rs) {
    if (b <= at) continue;
    out += text.slice(at, Math.max(a, at)) + REDACTED;
    at = b;
  }
  return out + text.slice(at);
}

/** `text` with every credential field and configured secret replaced by the marker. */
export function redactText(text, secrets = []) {
  if (!text) return text;
  return mask(text, secretRanges(text, secrets));
}

/** Headers as `[name, value]` pairs with credential values replaced. */
export function redactHeaders(headers, configured, secrets) {
  return (headers ?? []).map(([k, v]) => [k, isSecretHeader(k, configured) ? REDACTED : redactText(v, secrets)]);
}

/**
 * Redacts the traffic records of one server: `push(record)` returns the record as it may be shown.
 * `headers` is what the user configured for the server.
 */
export class Redactor {
  constructor(headers = {}) {
    this.configured = new Set(Object.keys(headers).map((k) => k.toLowerCase()));
    this.secrets = secretsOf(headers);
    this.carry = new Map(); // exchange -> the end of the body text seen so far
  }

  push(record) {
    switch (record.type) {
      case "request":
        return {
          ...record,
          url: redactText(record.url, this.secrets),
          headers: redactHeaders(record.headers, this.configured, this.secrets),
          body: record.body == null ? record.body : redactText(record.body, this.secrets),
        };
      case "head":
        return { ...record, headers: redactHeaders(record.headers, this.configured, this.secrets) };
      case "body": {
        const before = this.carry.get(record.exchange) ?? "";
        const all = before + record.text;
        this.carry.set(record.exchange, all.slice(-CARRY));
        if (this.carry.size > 1000) this.carry.delete(this.carry.keys().next().value);
        return { ...record, text: mask(all, secretRanges(all, this.secrets), before.length) };
      }
      case "end":
        this.carry.delete(record.exchange);
        return { ...record, error: record.error == null ? record.error : redactText(record.error, this.secrets) };
      default:
        return record;
    }
  }
}
