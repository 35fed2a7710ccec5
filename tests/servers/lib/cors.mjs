// CORS for the loopback test servers that browser pages on another origin call: the Origin
// reflected, the requested headers allowed, the headers a client reads exposed.

/** The CORS headers of a response to `req` (none without an Origin). */
export function corsHeaders(req) {
  const origin = req.headers.origin;
  if (!origin) return {};
  const h = {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": "mcp-session-id, www-authenticate, retry-after, date",
    vary: "Origin",
  };
  if (req.method === "OPTIONS") {
    h["access-control-allow-methods"] = "GET, POST, DELETE, OPTIONS";
    const requested = req.headers["access-control-request-headers"];
    if (requested) h["access-control-allow-headers"] = requested;
    h["access-control-max-age"] = "0";
  }
  return h;
}
