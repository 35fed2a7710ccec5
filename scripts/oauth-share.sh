#!/usr/bin/env bash
# What OAuth adds to the `web` package, measured like for like: the working tree (its tracked files
# as they are now) against copies of it with code cut out, each built and shrunk exactly as it
# ships (scripts/build-package.sh), gzip -9 of the module, the glue and the snippets
# (scripts/shipped-size.sh).
#   bash scripts/oauth-share.sh [client|full]...   (default: client full; 5-10 minutes each)
#
# Three trees per build:
# - with: the tree as it is;
# - browserless: without the browser sign-in helpers (`openAuthorizationPopup`, `browserStorage`
#   and their JS in src/js/glue.js), the part of the sign-in that only browser pages use;
# - without: no OAuth at all. The authorizer (src/proto/auth/flow.rs) becomes an enum with no
#   variants whose methods keep their signatures, so the session's `Option<Authorizer>` is always
#   `None` and the compiler drops every branch that reaches the flow, and with them discovery,
#   metadata, registration, grants, records, PKCE, DPoP and SHA-256; the JS `auth` option is
#   ignored (no config reader, no host), the driver drops auth events, and the auth host's JS
#   (the end of src/js/glue.js) is reduced to one empty export.
# What stays in every tree (and so is not counted): the `AuthError` type and its messages (session
# errors carry it), the `authorize` / `completeAuthorization` / `signOut` methods (they answer "no
# auth is configured"), redaction of `Authorization` headers in traces, the transport's proof hook.
# The cuts are a source transformation of a copy (python below), not a Cargo feature. Each checks
# that the code it cuts is where it expects: when the code moves, this script fails rather than
# measure something else.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
builds=("$@")
((${#builds[@]})) || builds=(client full)
trees=(with browserless without)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for tree in "${trees[@]}"; do
  mkdir -p "$work/$tree"
  git ls-files -z | tar --null -T - -c | tar -x -C "$work/$tree"
done

# cut DIR browser|all
cut() {
  python3 - "$@" <<'PY'
import re, sys
root, what = sys.argv[1], sys.argv[2]

def edit(path, f):
    p = f"{root}/{path}"
    s = open(p).read()
    t = f(s)
    if t == s:
        sys.exit(f"oauth-share.sh: {path}: nothing to cut (the code moved?)")
    open(p, "w").write(t)

def must(s, old, new):
    if old not in s:
        sys.exit(f"oauth-share.sh: not found: {old[:60]!r}")
    return s.replace(old, new, 1)

def stub_authorizer(s):
    lines = s.split("\n")
    start = lines.index("pub struct Authorizer {")
    end = lines.index("}", start)
    imp = lines.index("impl Authorizer {")
    imp_end = lines.index("}", imp)
    stubs, i = [], imp + 1
    while i < imp_end:
        if lines[i].startswith("    pub fn "):
            sig = [lines[i]]
            while not sig[-1].rstrip().endswith("{"):
                i += 1
                sig.append(lines[i])
            text = "\n".join(sig)
            if "self" in text.split(")")[0]:
                body = "        match *self {}"
            else:
                args = re.findall(r"(\w+):", text.split("(", 1)[1].rsplit(")", 1)[0])
                body = f"        let _ = ({', '.join(args)},);\n        Err(AuthError::InvalidConfig(String::new()))"
            stubs.append(f"{text}\n{body}\n    }}")
        i += 1
    if len(stubs) < 20:
        sys.exit(f"oauth-share.sh: only {len(stubs)} authorizer methods found")
    stub = "pub enum Authorizer {}\n\nimpl Authorizer {\n" + "\n".join(stubs) + "\n}"
    return "\n".join(lines[:start] + [stub] + lines[end + 1:imp] + lines[imp_end + 1:])

edit("src/lib.rs", lambda s: must(s, "#![deny(missing_docs)]", "#![allow(missing_docs, dead_code, unused)]"))
# The browser sign-in helpers: their exports and their JS in glue.js.
edit("src/js/mod.rs", lambda s: must(must(s, "mod browser;\n", ""),
    "pub use browser::{browser_storage, open_authorization_popup};\n", ""))
edit("src/js/glue.js", lambda s: re.sub(
    r"// ---- sign-in in browser pages.*?(?=export function wrapStream)", "", s, count=1, flags=re.S))
if what == "browser":
    sys.exit(0)
edit("src/proto/auth/flow.rs", stub_authorizer)
edit("src/client/mod.rs", lambda s: must(s, "Event::Auth(e) => auth_event(inner, e),", "Event::Auth(_) => {}"))
edit("src/js/auth.rs", lambda s: must(must(must(s,
    "    let v = from_js(&a)?;\n    AuthConfig::from_json(&v)",
    "    return Ok(None);\n    let v = from_js(&a)?;\n    AuthConfig::from_json(&v)"),
    '    let a = get(options, "auth");\n    if !a.is_object() {\n        return Ok((None, None));',
    '    let a = get(options, "auth");\n    if true {\n        return Ok((None, None));'),
    "    let Some(auth) = auth else {",
    "    let Some(auth) = auth.filter(|_| false) else {"))
# The auth host's JS, between its markers in glue.js (one stub export keeps the import).
END_HOST = "// ---- end of the authorization host ----"
edit("src/js/glue.js", lambda s: re.sub(
    r"// ---- the authorization host .*?" + re.escape(END_HOST) + r"\n",
    "export function authHost() {}\n", must(s, END_HOST, END_HOST),
    count=1, flags=re.S))
PY
}
cut "$work/browserless" browser
cut "$work/without" all

measure() { bash scripts/shipped-size.sh "$1"; } # DIR -> "total wasm glue snippets"
at="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- || echo " + changes")"
for build in "${builds[@]}"; do
  case "$build" in
    client) cargo_args=(--no-default-features) ;;
    full) cargo_args=() ;;
    *) echo "usage: $0 [client|full]..." >&2; exit 2 ;;
  esac
  for tree in "${trees[@]}"; do
    # One target directory per tree: the trees share a package id, and cargo would take one's
    # build for another's.
    CARGO_TARGET_DIR="$ROOT/target/oauth-share/$tree" MCP_EDGE_CRATE="$work/$tree" \
      bash scripts/build-package.sh web "$work/$tree/pkg/$build" "${cargo_args[@]}"
  done
  read -r wt ww wg ws <<<"$(measure "$work/with/pkg/$build")"
  read -r bt bw bg bs <<<"$(measure "$work/browserless/pkg/$build")"
  read -r ot ow og os <<<"$(measure "$work/without/pkg/$build")"
  echo "oauth-share: $build build at $at, gzip -9 (.wasm + glue + snippets):" \
    "with OAuth $wt ($ww + $wg + $ws), without the browser sign-in helpers $bt ($bw + $bg + $bs)," \
    "without OAuth $ot ($ow + $og + $os): OAuth adds $((wt - ot)) B, of which the browser sign-in" \
    "helpers $((wt - bt)) B and the rest $((bt - ot)) B"
done
