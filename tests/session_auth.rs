//! OAuth inside the session, on virtual time, against a scripted MCP server + authorization
//! server: discovery order, resource and issuer checks, client identity, PKCE, `state`, RFC 9207
//! `iss`, scopes and step-up, refresh, DPoP, the non-interactive grants, both eras, and
//! redaction of every secret from what the session reports.

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod support;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use mcp_edge::proto::auth::{
    jose, uri, AuthConfig, AuthError, AuthEvent, Grant, Interaction, Secret, StaticClient,
};
use mcp_edge::proto::http::{HttpRequest, Method};
use mcp_edge::proto::session::{
    Event, ListKind, ProtocolChoice, ProtocolError, RequestOptions, SessionConfig,
};
use serde_json::{json, Value};
use support::{discover_result, id_of, method_of, Pair, Reply};

const MCP: &str = "http://mcp.test/mcp";
const RS: &str = "http://mcp.test";
const AS: &str = "http://as.test";
const REDIRECT: &str = "http://127.0.0.1:3000/callback";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Prm {
    /// Named in WWW-Authenticate at `/.well-known/oauth-protected-resource/mcp`.
    Named,
    /// At the path-aware URL, not named.
    PathAware,
    /// Only at the root, not named.
    Root,
    /// Nowhere (2025-03-26 server).
    None,
}

#[derive(Clone, PartialEq, Eq, Debug)]
enum Iss {
    Correct,
    Omit,
    Value(String),
}

/// A form body as name/value pairs.
type Form = Vec<(String, String)>;
/// A token request as the authorization server saw it: form, `Authorization`, `DPoP`.
type TokenRequest = (Form, Option<String>, Option<String>);

/// The scripted servers' knobs and observations.
struct World {
    legacy: bool,
    prm: Prm,
    prm_resource: String,
    prm_scopes: Option<Vec<&'static str>>,
    challenge_scope: Option<&'static str>,
    as_url: String,
    /// Which candidate serves the metadata: `oauth` (inserted), `oidc` (inserted), `oidc-appended`.
    asm_at: &'static str,
    asm_issuer: Option<String>,
    iss_supported: Option<bool>,
    iss: Iss,
    pkce_methods: Option<Vec<&'static str>>,
    auth_methods: Vec<&'static str>,
    as_scopes: Option<Vec<&'static str>>,
    cimd: bool,
    registration: bool,
    dpop: bool,
    as_nonce: Option<&'static str>,
    rs_nonce: Option<&'static str>,
    expires_in: u64,
    refresh: bool,
    /// `tools/call` needs this scope (else 403 insufficient_scope).
    call_scope: Option<&'static str>,
    /// Every tokened request is refused with 403 insufficient_scope.
    always_403: bool,
    /// The 401 carries no `WWW-Authenticate` the client can read (a browser hides a header a
    /// cross-origin server does not expose).
    hide_www: bool,
    /// Token endpoint answers errors for these grant types.
    refuse_grants: Vec<&'static str>,
    /// This many GET streams carrying a valid token are refused with 401 (then 405): plain
    /// `invalid_token`, or `use_dpop_nonce` with a new `DPoP-Nonce` each time.
    get_refusals_left: u32,
    get_refusal_nonce: bool,
    // observations
    log: Vec<String>,
    authorize: Vec<BTreeMap<String, String>>,
    /// Token requests: form, `Authorization` header, `DPoP` header.
    tokens_req: Vec<TokenRequest>,
    registrations: Vec<Value>,
    challenges: BTreeMap<String, String>,
    issued: BTreeMap<String, (String, String)>,
    next: u32,
    session_id: Option<String>,
    mcp_auth_headers: Vec<(String, Option<String>)>,
}

impl World {
    fn new() -> World {
        World {
            legacy: false,
            prm: Prm::Named,
            prm_resource: MCP.into(),
            prm_scopes: None,
            challenge_scope: None,
            as_url: AS.into(),
            asm_at: "oauth",
            asm_issuer: None,
            iss_supported: Some(true),
            iss: Iss::Correct,
            pkce_methods: Some(vec!["S256"]),
            auth_methods: vec!["none"],
            as_scopes: None,
            cimd: false,
            registration: true,
            dpop: false,
            as_nonce: None,
            rs_nonce: None,
            expires_in: 3600,
            refresh: false,
            call_scope: None,
            always_403: false,
            hide_www: false,
            refuse_grants: vec![],
            get_refusals_left: 0,
            get_refusal_nonce: false,
            log: vec![],
            authorize: vec![],
            tokens_req: vec![],
            registrations: vec![],
            challenges: BTreeMap::new(),
            issued: BTreeMap::new(),
            next: 0,
            session_id: None,
            mcp_auth_headers: vec![],
        }
    }

    fn issuer(&self) -> String {
        self.asm_issuer
            .clone()
            .unwrap_or_else(|| self.as_url.clone())
    }

    fn prm_url(&self) -> String {
        match self.prm {
            Prm::Root => format!("{RS}/.well-known/oauth-protected-resource"),
            _ => format!("{RS}/.well-known/oauth-protected-resource/mcp"),
        }
    }

    fn www(&self, error: Option<&str>, scope: Option<&str>) -> String {
        let scheme = if self.dpop { "DPoP" } else { "Bearer" };
        let mut parts = vec![];
        if let Some(e) = error {
            parts.push(format!("error=\"{e}\""));
        }
        if let Some(s) = scope {
            parts.push(format!("scope=\"{s}\""));
        }
        if self.prm == Prm::Named {
            parts.push(format!("resource_metadata=\"{}\"", self.prm_url()));
        }
        format!("{scheme} {}", parts.join(", "))
    }

    fn serve(&mut self, req: &HttpRequest) -> Reply {
        self.log
            .push(format!("{} {}", req.method.as_str(), req.url));
        if req.url == MCP {
            return self.serve_mcp(req);
        }
        if req.method == Method::Get && req.url.contains("/.well-known/oauth-protected-resource") {
            return self.serve_prm(req);
        }
        self.serve_as(req)
    }

    fn serve_prm(&mut self, req: &HttpRequest) -> Reply {
        let here = match self.prm {
            Prm::Named | Prm::PathAware => {
                req.url == format!("{RS}/.well-known/oauth-protected-resource/mcp")
            }
            Prm::Root => req.url == format!("{RS}/.well-known/oauth-protected-resource"),
            Prm::None => false,
        };
        if !here {
            return Reply::status(404, "not found");
        }
        let mut doc = json!({
            "resource": self.prm_resource,
            "authorization_servers": [self.as_url],
        });
        if let Some(s) = &self.prm_scopes {
            doc["scopes_supported"] = json!(s);
        }
        Reply::json(doc)
    }

    fn metadata(&self) -> Value {
        let base = self.as_url.clone();
        let mut m = json!({
            "issuer": self.issuer(),
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "response_types_supported": ["code"],
            "token_endpoint_auth_methods_supported": self.auth_methods,
        });
        if self.registration {
            m["registration_endpoint"] = json!(format!("{base}/register"));
        }
        if let Some(p) = &self.pkce_methods {
            m["code_challenge_methods_supported"] = json!(p);
        }
        if let Some(i) = self.iss_supported {
            m["authorization_response_iss_parameter_supported"] = json!(i);
        }
        if let Some(s) = &self.as_scopes {
            m["scopes_supported"] = json!(s);
        }
        if self.cimd {
            m["client_id_metadata_document_supported"] = json!(true);
        }
        if self.dpop {
            m["dpop_signing_alg_values_supported"] = json!(["ES256"]);
        }
        m
    }

    fn serve_as(&mut self, req: &HttpRequest) -> Reply {
        let Some(parts) = uri::split(&req.url) else {
            return Reply::status(400, "bad url");
        };
        let origin = parts.origin();
        let path = parts.path.to_string();
        let as_parts = uri::split(&self.as_url).unwrap();
        let tenant = as_parts.trimmed_path().to_string();
        let candidates = [
            (
                "oauth",
                format!("/.well-known/oauth-authorization-server{tenant}"),
            ),
            ("oidc", format!("/.well-known/openid-configuration{tenant}")),
            (
                "oidc-appended",
                format!("{tenant}/.well-known/openid-configuration"),
            ),
        ];
        if req.method == Method::Get && path.contains("/.well-known/") {
            let served = candidates
                .iter()
                .any(|(k, p)| *k == self.asm_at && *p == path && origin == as_parts.origin());
            return if served {
                Reply::json(self.metadata())
            } else {
                Reply::status(404, "not found")
            };
        }
        let route = path
            .strip_prefix(tenant.as_str())
            .unwrap_or(&path)
            .to_string();
        match (req.method, route.as_str()) {
            (Method::Get, "/authorize") => {
                let q: BTreeMap<String, String> = uri::parse_form(parts.query.unwrap_or_default())
                    .into_iter()
                    .collect();
                self.challenges.insert(
                    "code-1".into(),
                    q.get("code_challenge").cloned().unwrap_or_default(),
                );
                let redirect = q.get("redirect_uri").cloned().unwrap_or_default();
                let mut back = vec![("code".to_string(), "code-1".to_string())];
                if let Some(s) = q.get("state") {
                    back.push(("state".into(), s.clone()));
                }
                match &self.iss {
                    Iss::Correct => back.push(("iss".into(), self.issuer())),
                    Iss::Omit => {}
                    Iss::Value(v) => back.push(("iss".into(), v.clone())),
                }
                self.authorize.push(q);
                let refs: Vec<(&str, &str)> =
                    back.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                Reply::status(302, "")
                    .header("Location", &uri::with_query(&redirect, &uri::form(&refs)))
            }
            (Method::Post, "/register") => {
                let body: Value = serde_json::from_str(req.body.as_deref().unwrap()).unwrap();
                self.registrations.push(body.clone());
                self.next += 1;
                let method = body["token_endpoint_auth_method"]
                    .as_str()
                    .unwrap_or("none");
                let mut r = json!({"client_id": format!("client-{}-{}", self.as_url, self.next)});
                if method != "none" {
                    r["client_secret"] = json!(format!("SECRET-{}", self.next));
                    r["token_endpoint_auth_method"] = json!(method);
                }
                let mut reply = Reply::json(r);
                reply.status = 201;
                reply
            }
            (Method::Post, "/token") => self.token(req),
            _ => Reply::status(404, "not found"),
        }
    }

    fn token(&mut self, req: &HttpRequest) -> Reply {
        let form = uri::parse_form(req.body.as_deref().unwrap_or_default());
        let get = |k: &str| form.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let auth = req.header("authorization").map(str::to_string);
        let proof = req.header("dpop").map(str::to_string);
        self.tokens_req.push((form.clone(), auth, proof.clone()));
        // No test needs this many: a client asking again and again is looping.
        assert!(self.tokens_req.len() <= 20, "token request loop");
        let grant = get("grant_type").unwrap_or_default();
        if self.refuse_grants.contains(&grant.as_str()) {
            return Reply::json(json!({"error": "invalid_grant"})).with_status(400);
        }
        if let (true, Some(n)) = (self.dpop, self.as_nonce) {
            let claims = proof.as_deref().and_then(claims_of).unwrap_or(Value::Null);
            if claims["nonce"] != json!(n) {
                return Reply::json(json!({"error": "use_dpop_nonce"}))
                    .with_status(400)
                    .header("DPoP-Nonce", n);
            }
        }
        if grant == "authorization_code" {
            let verifier = get("code_verifier").unwrap_or_default();
            let want = self.challenges.get("code-1").cloned().unwrap_or_default();
            if jose::pkce_challenge(&Secret::new(verifier)) != want {
                return Reply::json(json!({"error": "invalid_grant", "error_description": "PKCE"}))
                    .with_status(400);
            }
        }
        self.next += 1;
        let tok = format!("TOKEN-{}", self.next);
        let scope = match grant.as_str() {
            "authorization_code" => self
                .authorize
                .last()
                .and_then(|q| q.get("scope").cloned())
                .unwrap_or_default(),
            "refresh_token" => get("refresh_token")
                .and_then(|rt| {
                    self.issued
                        .values()
                        .find(|(_, r)| *r == rt)
                        .map(|(s, _)| s.clone())
                })
                .unwrap_or_default(),
            _ => get("scope").unwrap_or_default(),
        };
        let rt = format!("REFRESH-{}", self.next);
        if grant == "refresh_token" {
            // Rotation: the refresh token used and its access token are revoked.
            let used = get("refresh_token").unwrap_or_default();
            self.issued.retain(|_, (_, r)| *r != used);
        }
        self.issued.insert(tok.clone(), (scope.clone(), rt.clone()));
        let mut r = json!({
            "access_token": tok,
            "token_type": if self.dpop && proof.is_some() { "DPoP" } else { "Bearer" },
            "expires_in": self.expires_in,
        });
        if !scope.is_empty() {
            r["scope"] = json!(scope);
        }
        if self.refresh {
            r["refresh_token"] = json!(rt);
        }
        Reply::json(r)
    }

    fn serve_mcp(&mut self, req: &HttpRequest) -> Reply {
        let auth = req.header("authorization").map(str::to_string);
        let proof = req.header("dpop").map(str::to_string);
        self.mcp_auth_headers
            .push((auth.clone().unwrap_or_default(), proof.clone()));
        let method = method_of(req);
        if method.starts_with("notifications/") {
            return Reply::accepted();
        }
        let token = auth
            .as_deref()
            .and_then(|a| a.split_once(' '))
            .map(|(_, t)| t.to_string());
        let granted = token
            .as_ref()
            .and_then(|t| self.issued.get(t))
            .map(|(s, _)| s.clone());
        let Some(granted) = granted else {
            if self.hide_www {
                return Reply::json(json!({"error": "invalid_token"})).with_status(401);
            }
            return Reply::json(json!({"error": "invalid_token"}))
                .with_status(401)
                .header("WWW-Authenticate", &self.www(None, self.challenge_scope));
        };
        if let (true, Some(n)) = (self.dpop, self.rs_nonce) {
            let claims = proof.as_deref().and_then(claims_of).unwrap_or(Value::Null);
            if claims["nonce"] != json!(n) {
                return Reply::json(json!({"error": "use_dpop_nonce"}))
                    .with_status(401)
                    .header("WWW-Authenticate", &self.www(Some("use_dpop_nonce"), None))
                    .header("DPoP-Nonce", n);
            }
        }
        if method == "GET" && self.get_refusals_left > 0 {
            self.get_refusals_left -= 1;
            if self.get_refusal_nonce {
                let n = format!("get-nonce-{}", self.get_refusals_left);
                return Reply::json(json!({"error": "use_dpop_nonce"}))
                    .with_status(401)
                    .header("WWW-Authenticate", &self.www(Some("use_dpop_nonce"), None))
                    .header("DPoP-Nonce", &n);
            }
            return Reply::json(json!({"error": "invalid_token"}))
                .with_status(401)
                .header("WWW-Authenticate", &self.www(None, None));
        }
        if self.always_403 {
            return Reply::json(json!({"error": "insufficient_scope"}))
                .with_status(403)
                .header(
                    "WWW-Authenticate",
                    &self.www(Some("insufficient_scope"), Some("mcp:admin")),
                );
        }
        if let (Some(need), "tools/call") = (self.call_scope, method.as_str()) {
            if !granted.split(' ').any(|s| s == need) {
                return Reply::json(json!({"error": "insufficient_scope"}))
                    .with_status(403)
                    .header(
                        "WWW-Authenticate",
                        &self.www(Some("insufficient_scope"), Some(need)),
                    );
            }
        }
        let id = id_of(req);
        match method.as_str() {
            "server/discover" if self.legacy => {
                Reply::error(400, &id, -32601, "Method not found", None)
            }
            "server/discover" => Reply::result(&id, discover_result()),
            "initialize" => {
                self.session_id = Some("sess-1".into());
                Reply::result(
                    &id,
                    json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}),
                )
                .header("Mcp-Session-Id", "sess-1")
            }
            "GET" => Reply::status(405, ""),
            "tools/list" => Reply::result(
                &id,
                json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}),
            ),
            "tools/call" => {
                Reply::result(&id, json!({"content": [{"type": "text", "text": "ok"}]}))
            }
            _ => Reply::error(404, &id, -32601, "Method not found", None),
        }
    }
}

/// The claims of a compact JWT (test servers read them without verifying).
fn claims_of(jwt: &str) -> Option<Value> {
    use base64ct::{Base64UrlUnpadded, Encoding};
    let payload = Base64UrlUnpadded::decode_vec(jwt.split('.').nth(1)?).ok()?;
    serde_json::from_slice(&payload).ok()
}

trait WithStatus {
    fn with_status(self, s: u16) -> Self;
}
impl WithStatus for Reply {
    fn with_status(mut self, s: u16) -> Self {
        self.status = s;
        self
    }
}

fn code_config() -> AuthConfig {
    let mut a = AuthConfig::new(Grant::AuthorizationCode {
        interaction: Interaction::Headless,
    });
    a.redirect_uri = Some(REDIRECT.into());
    a.client_metadata_url = Some("https://client.example/metadata.json".into());
    a
}

fn session_config(auth: AuthConfig) -> SessionConfig {
    let mut cfg = SessionConfig::new(MCP);
    cfg.auth = Some(auth);
    cfg.unix_epoch_ms = 1_700_000_000_000;
    cfg
}

type Shared = Rc<RefCell<World>>;

fn pair_with(world: World, auth: AuthConfig) -> (Pair<impl FnMut(&HttpRequest) -> Reply>, Shared) {
    let w = Rc::new(RefCell::new(world));
    let w2 = w.clone();
    let pair = Pair::new(session_config(auth), move |req: &HttpRequest| {
        w2.borrow_mut().serve(req)
    });
    (pair, w)
}

fn connect<F: FnMut(&HttpRequest) -> Reply>(p: &mut Pair<F>) -> mcp_edge::proto::session::OpId {
    let op = p.session.connect(p.now);
    p.pump();
    op
}

/// Calls tool `t` (the test server answers "ok", or challenges with `call_scope`).
fn call_tool<F: FnMut(&HttpRequest) -> Reply>(p: &mut Pair<F>) -> mcp_edge::proto::session::OpId {
    p.session.request(
        "tools/call",
        json!({"name": "t", "arguments": {}}),
        RequestOptions::default(),
        p.now,
    )
}

fn auth_err(e: &ProtocolError) -> &AuthError {
    match e {
        ProtocolError::Auth(a) => a,
        other => panic!("not an auth error: {other:?}"),
    }
}

fn as_requests(w: &World) -> Vec<String> {
    w.log
        .iter()
        .filter(|l| {
            l.contains("as.test")
                || l.contains("/authorize")
                || l.contains("/token")
                || l.contains("/register")
        })
        .cloned()
        .collect()
}

// ---- the whole flow --------------------------------------------------------------------------

#[test]
fn modern_discover_401_runs_the_flow_and_replays_with_the_token() {
    let (mut p, w) = pair_with(World::new(), code_config());
    let op = connect(&mut p);
    let info = p.ok(op).clone();
    assert_eq!(info["era"], "modern");
    let w = w.borrow();
    assert_eq!(
        w.log,
        vec![
            format!("POST {MCP}"),
            format!("GET {RS}/.well-known/oauth-protected-resource/mcp"),
            format!("GET {AS}/.well-known/oauth-authorization-server"),
            format!("POST {AS}/register"),
            format!("GET {AS}/authorize?{}", w.log[4].split_once('?').unwrap().1),
            format!("POST {AS}/token"),
            format!("POST {MCP}"),
        ]
    );
    // The replayed discover carries the token; the first did not.
    assert_eq!(w.mcp_auth_headers[0].0, "");
    assert_eq!(w.mcp_auth_headers[1].0, "Bearer TOKEN-2");
    // Registration: application_type (SEP-837) and refresh_token for an interactive client.
    let reg = &w.registrations[0];
    assert_eq!(reg["application_type"], "native");
    assert_eq!(
        reg["grant_types"],
        json!(["authorization_code", "refresh_token"])
    );
    assert_eq!(reg["redirect_uris"], json!([REDIRECT]));
    // PKCE S256 and RFC 8707 resource identical in both requests.
    let q = &w.authorize[0];
    assert_eq!(q["code_challenge_method"], "S256");
    assert_eq!(q["resource"], MCP);
    assert_eq!(q["response_type"], "code");
    assert!(q["state"].len() >= 22);
    let (form, _, _) = &w.tokens_req[0];
    let get = |k: &str| form.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    assert_eq!(get("resource"), Some(MCP));
    assert_eq!(get("grant_type"), Some("authorization_code"));
    assert_eq!(get("redirect_uri"), Some(REDIRECT));
    assert_eq!(
        jose::pkce_challenge(&Secret::new(get("code_verifier").unwrap())),
        q["code_challenge"]
    );
    // Tokens stored with an absolute expiry; the pending request removed once used.
    let stored = &p.storage[&format!("mcp-edge:tokens:{MCP}")];
    let rec: Value = serde_json::from_str(stored).unwrap();
    assert_eq!(rec["expires_at"], json!(1_700_000_000_000u64 + 3_600_000));
    assert!(!p.storage.keys().any(|k| k.starts_with("mcp-edge:pending:")));
    assert!(p
        .events
        .iter()
        .any(|e| matches!(e, Event::Auth(AuthEvent::SignedIn { issuer, .. }) if issuer == AS)));
}

#[test]
fn requests_wait_for_the_stored_tokens_and_send_them_first() {
    let mut world = World::new();
    world
        .issued
        .insert("TOKEN-9".into(), (String::new(), String::new()));
    let (mut p, w) = pair_with(world, code_config());
    p.storage.insert(
        format!("mcp-edge:tokens:{MCP}"),
        json!({"issuer": AS, "resource": MCP, "access_token": "TOKEN-9", "token_type": "Bearer", "expires_at": null, "scope": null}).to_string(),
    );
    p.hold_loads = true;
    p.pump();
    let op = connect(&mut p);
    assert!(
        w.borrow().log.is_empty(),
        "sent before the stored tokens were read"
    );
    p.release_loads();
    p.ok(op);
    let w = w.borrow();
    assert_eq!(w.log, vec![format!("POST {MCP}")]);
    assert_eq!(w.mcp_auth_headers[0].0, "Bearer TOKEN-9");
}

// ---- discovery -------------------------------------------------------------------------------

#[test]
fn a_named_resource_metadata_url_is_used_alone() {
    let mut world = World::new();
    world.prm = Prm::Named;
    world.prm_resource = "http://mcp.test/elsewhere".into();
    // The named document fails the resource check: no other PRM URL may be tried.
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    assert!(matches!(
        auth_err(p.err(op)),
        AuthError::ResourceMismatch { .. }
    ));
    let w = w.borrow();
    assert!(!w
        .log
        .iter()
        .any(|l| l.ends_with("/.well-known/oauth-protected-resource")));
    assert!(
        as_requests(&w).is_empty(),
        "authorization-server traffic after a resource mismatch: {:?}",
        w.log
    );
}

#[test]
fn path_aware_then_root_resource_metadata_and_a_path_issuer_never_probes_the_root() {
    let mut world = World::new();
    world.prm = Prm::Root;
    world.prm_resource = RS.into();
    world.as_url = format!("{AS}/tenant1");
    world.asm_at = "oidc-appended";
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    let w = w.borrow();
    assert_eq!(
        &w.log[1..6],
        &[
            format!("GET {RS}/.well-known/oauth-protected-resource/mcp"),
            format!("GET {RS}/.well-known/oauth-protected-resource"),
            format!("GET {AS}/.well-known/oauth-authorization-server/tenant1"),
            format!("GET {AS}/.well-known/openid-configuration/tenant1"),
            format!("GET {AS}/tenant1/.well-known/openid-configuration"),
        ]
    );
    assert!(!w
        .log
        .iter()
        .any(|l| l == &format!("GET {AS}/.well-known/oauth-authorization-server")));
    // The resource is the PRM's string verbatim (the origin, no slash added).
    assert_eq!(w.authorize[0]["resource"], RS);
}

#[test]
fn oidc_metadata_is_tried_after_oauth_for_a_pathless_issuer() {
    let mut world = World::new();
    world.prm = Prm::PathAware;
    world.asm_at = "oidc";
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    let w = w.borrow();
    assert_eq!(
        w.log[2],
        format!("GET {AS}/.well-known/oauth-authorization-server")
    );
    assert_eq!(
        w.log[3],
        format!("GET {AS}/.well-known/openid-configuration")
    );
}

#[test]
fn metadata_whose_issuer_differs_is_not_used() {
    let mut world = World::new();
    world.asm_issuer = Some("https://attacker.example.com".into());
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    assert_eq!(
        auth_err(p.err(op)),
        &AuthError::MetadataIssuerMismatch {
            expected: AS.into(),
            found: "https://attacker.example.com".into()
        }
    );
    let w = w.borrow();
    assert!(w.registrations.is_empty() && w.authorize.is_empty() && w.tokens_req.is_empty());
}

#[test]
fn a_trailing_slash_issuer_in_metadata_is_a_mismatch_too() {
    let mut world = World::new();
    world.asm_issuer = Some(format!("{AS}/"));
    let (mut p, _w) = pair_with(world, code_config());
    let op = connect(&mut p);
    assert!(matches!(
        auth_err(p.err(op)),
        AuthError::MetadataIssuerMismatch { .. }
    ));
}

#[test]
fn pkce_must_be_advertised() {
    for methods in [None, Some(vec!["plain"])] {
        let mut world = World::new();
        world.pkce_methods = methods;
        let (mut p, w) = pair_with(world, code_config());
        let op = connect(&mut p);
        assert!(matches!(
            auth_err(p.err(op)),
            AuthError::PkceUnsupported { .. }
        ));
        assert!(w.borrow().authorize.is_empty());
    }
}

#[test]
fn march_2025_server_without_metadata_uses_the_default_endpoints() {
    let mut world = World::new();
    world.prm = Prm::None;
    world.as_url = RS.into();
    world.asm_at = "none";
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    let w = w.borrow();
    assert_eq!(
        &w.log[1..5],
        &[
            format!("GET {RS}/.well-known/oauth-protected-resource/mcp"),
            format!("GET {RS}/.well-known/oauth-protected-resource"),
            format!("GET {RS}/.well-known/oauth-authorization-server"),
            format!("GET {RS}/.well-known/openid-configuration"),
        ]
    );
    assert_eq!(w.log[5], format!("POST {RS}/register"));
    assert!(w.log[6].starts_with(&format!("GET {RS}/authorize?")));
    assert_eq!(w.log[7], format!("POST {RS}/token"));
    assert_eq!(w.authorize[0]["code_challenge_method"], "S256");
}

// ---- RFC 9207 iss ------------------------------------------------------------------------------

fn iss_case(supported: Option<bool>, iss: Iss) -> (Result<(), AuthError>, usize) {
    let mut world = World::new();
    world.iss_supported = supported;
    world.iss = iss;
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    let r = match p.completed(op) {
        Some(Ok(_)) => Ok(()),
        Some(Err(e)) => Err(auth_err(e).clone()),
        None => panic!("not completed"),
    };
    let n = w.borrow().tokens_req.len();
    (r, n)
}

#[test]
fn iss_validation_follows_the_2026_table() {
    // advertised + present + equal: proceed.
    assert_eq!(iss_case(Some(true), Iss::Correct), (Ok(()), 1));
    // advertised + absent: reject before any token request.
    assert!(matches!(
        iss_case(Some(true), Iss::Omit),
        (Err(AuthError::IssMissing { .. }), 0)
    ));
    // not advertised + present + different: compare, reject.
    assert!(matches!(
        iss_case(None, Iss::Value("https://evil.example.com".into())),
        (Err(AuthError::IssMismatch { .. }), 0)
    ));
    assert!(matches!(
        iss_case(Some(false), Iss::Value("https://evil.example.com".into())),
        (Err(AuthError::IssMismatch { .. }), 0)
    ));
    // not advertised + absent: proceed.
    assert_eq!(iss_case(None, Iss::Omit), (Ok(()), 1));
    assert_eq!(iss_case(Some(false), Iss::Correct), (Ok(()), 1));
}

#[test]
fn normalisation_variants_of_the_issuer_are_all_rejected_before_the_token_request() {
    for variant in [
        format!("{AS}/"),
        "HTTP://as.test".to_string(),
        "http://AS.test".to_string(),
        "http://as.test:80".to_string(),
        "http://as%2Etest".to_string(),
    ] {
        let (r, tokens) = iss_case(Some(true), Iss::Value(variant.clone()));
        assert!(
            matches!(r, Err(AuthError::IssMismatch { .. })),
            "{variant}: {r:?}"
        );
        assert_eq!(tokens, 0, "{variant}: a token request was made");
    }
}

#[test]
fn an_error_response_with_a_wrong_iss_is_not_shown() {
    let mut world = World::new();
    world.iss = Iss::Value("https://evil.example.com".into());
    let (mut p, _w) = pair_with(world, {
        let mut c = code_config();
        c.grant = Grant::AuthorizationCode {
            interaction: Interaction::Host,
        };
        c
    });
    let op = connect(&mut p);
    assert!(p.completed(op).is_none());
    let url = p.authorize_urls[0].clone();
    let state = uri::parse_form(uri::split(&url).unwrap().query.unwrap())
        .into_iter()
        .find(|(k, _)| k == "state")
        .unwrap()
        .1;
    let cb = format!(
        "{REDIRECT}?error=access_denied&error_description=ATTACKER-TEXT&state={}&iss=https%3A%2F%2Fevil.example.com",
        uri::form_encode(&state)
    );
    p.session.handle_authorization_callback(&cb, p.now);
    p.pump();
    let e = p.err(op);
    assert!(matches!(auth_err(e), AuthError::IssMismatch { .. }));
    assert!(!e.to_string().contains("ATTACKER-TEXT"));
}

#[test]
fn a_callback_with_another_state_is_rejected() {
    let (mut p, w) = pair_with(World::new(), {
        let mut c = code_config();
        c.grant = Grant::AuthorizationCode {
            interaction: Interaction::Host,
        };
        c
    });
    let op = connect(&mut p);
    assert_eq!(p.authorize_urls.len(), 1);
    p.session.handle_authorization_callback(
        &format!("{REDIRECT}?code=code-1&state=forged&iss=http%3A%2F%2Fas.test"),
        p.now,
    );
    p.pump();
    assert_eq!(auth_err(p.err(op)), &AuthError::StateMismatch);
    assert!(w.borrow().tokens_req.is_empty());
}

#[test]
fn host_interaction_completes_from_the_callback() {
    let (mut p, w) = pair_with(World::new(), {
        let mut c = code_config();
        c.grant = Grant::AuthorizationCode {
            interaction: Interaction::Host,
        };
        c
    });
    let op = connect(&mut p);
    let url = p.authorize_urls[0].clone();
    // A pending record is stored before the person is sent away, keyed without the state.
    let pending: Vec<_> = p
        .storage
        .keys()
        .filter(|k| k.starts_with("mcp-edge:pending:"))
        .cloned()
        .collect();
    assert_eq!(pending.len(), 1);
    // The person signs in: the authorization server redirects back.
    let back = w.borrow_mut().serve(&HttpRequest {
        method: Method::Get,
        url: url.clone(),
        headers: vec![],
        body: None,
        extras: Default::default(),
    });
    let location = back
        .headers
        .iter()
        .find(|(k, _)| k == "Location")
        .unwrap()
        .1
        .clone();
    let state = uri::callback_params(&location)
        .into_iter()
        .find(|(k, _)| k == "state")
        .unwrap()
        .1;
    assert!(
        !pending[0].contains(&state),
        "the state is in a storage key"
    );
    p.session.handle_authorization_callback(&location, p.now);
    p.pump();
    p.ok(op);
}

#[test]
fn a_host_that_cannot_show_the_page_fails_with_the_url() {
    let (mut p, _w) = pair_with(World::new(), {
        let mut c = code_config();
        c.grant = Grant::AuthorizationCode {
            interaction: Interaction::Host,
        };
        c
    });
    let op = connect(&mut p);
    let url = p.authorize_urls[0].clone();
    p.session
        .abort_authorization(AuthError::InteractionRequired { url: url.clone() }, p.now);
    p.pump();
    let e = auth_err(p.err(op));
    assert_eq!(e, &AuthError::InteractionRequired { url: url.clone() });
    // The URL (with its `state`) is for the host to open; the message, which ends up in logs,
    // does not repeat it.
    let state = uri::callback_params(&url)
        .into_iter()
        .find(|(k, _)| k == "state")
        .map(|(_, v)| v)
        .unwrap();
    assert!(!e.to_string().contains(&state), "{e}");
}

#[test]
fn headless_mode_fails_clearly_when_the_server_shows_a_page() {
    let w = Rc::new(RefCell::new(World::new()));
    let w2 = w.clone();
    let mut pair = Pair::new(session_config(code_config()), move |req: &HttpRequest| {
        if req.url.contains("/authorize") {
            // A login page instead of a redirect.
            return Reply::status(200, "<html>login</html>");
        }
        w2.borrow_mut().serve(req)
    });
    let op = pair.session.connect(0);
    pair.pump();
    assert!(matches!(
        auth_err(pair.err(op)),
        AuthError::HeadlessUnavailable { .. }
    ));
    assert!(w.borrow().tokens_req.is_empty());
}

// ---- client identity ---------------------------------------------------------------------------

#[test]
fn client_metadata_document_is_used_when_supported() {
    let mut world = World::new();
    world.cimd = true;
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    let w = w.borrow();
    assert!(w.registrations.is_empty());
    assert_eq!(
        w.authorize[0]["client_id"],
        "https://client.example/metadata.json"
    );
}

#[test]
fn a_preregistered_client_comes_first_and_uses_basic_where_accepted() {
    let mut world = World::new();
    world.registration = false;
    world.auth_methods = vec!["client_secret_basic"];
    world.cimd = true;
    let mut cfg = code_config();
    cfg.client = Some(StaticClient {
        issuer: None,
        client_id: "pre-registered-client".into(),
        client_secret: Some(Secret::new("pre-registered-secret")),
        private_key_jwt: false,
        auth_method: None,
    });
    let (mut p, w) = pair_with(world, cfg);
    let op = connect(&mut p);
    p.ok(op);
    let w = w.borrow();
    assert_eq!(w.authorize[0]["client_id"], "pre-registered-client");
    let basic = w.tokens_req[0].1.clone().unwrap();
    use base64ct::Encoding;
    let decoded = base64ct::Base64::decode_vec(basic.strip_prefix("Basic ").unwrap()).unwrap();
    assert_eq!(
        String::from_utf8(decoded).unwrap(),
        "pre-registered-client:pre-registered-secret"
    );
}

#[test]
fn token_endpoint_auth_follows_the_registration() {
    for (methods, want) in [
        (vec!["client_secret_basic"], "basic"),
        (vec!["client_secret_post"], "post"),
        (vec!["none"], "none"),
    ] {
        let mut world = World::new();
        world.auth_methods = methods;
        let (mut p, w) = pair_with(world, code_config());
        let op = connect(&mut p);
        p.ok(op);
        let w = w.borrow();
        let (form, header, _) = &w.tokens_req[0];
        let has = |k: &str| form.iter().any(|(n, _)| n == k);
        let got = match (header.as_deref(), has("client_secret")) {
            (Some(h), _) if h.starts_with("Basic ") => "basic",
            (_, true) => "post",
            _ => "none",
        };
        assert_eq!(got, want);
        assert!(has("client_id") || got == "basic");
    }
}

#[test]
fn the_authorization_server_changing_means_a_new_registration_and_no_reuse() {
    let (mut p, w) = pair_with(World::new(), code_config());
    let op = connect(&mut p);
    p.ok(op);
    let first_client = w.borrow().authorize[0]["client_id"].clone();
    // The server moves to another authorization server; the old token is refused.
    {
        let mut w = w.borrow_mut();
        w.as_url = "http://as2.test".into();
        w.issued.clear();
    }
    let list = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(list);
    let w = w.borrow();
    assert_eq!(
        w.registrations.len(),
        2,
        "no registration at the new server"
    );
    let second = &w.authorize[1];
    assert_ne!(second["client_id"], first_client);
    assert!(second["client_id"].starts_with("client-http://as2.test"));
    let (form, _, _) = w.tokens_req.last().unwrap();
    assert!(!form.iter().any(|(_, v)| *v == first_client));
    assert!(w.log.iter().any(|l| l == "POST http://as2.test/token"));
}

// ---- scopes ------------------------------------------------------------------------------------

#[test]
fn scope_comes_from_the_challenge_then_the_resource_metadata_else_is_omitted() {
    let mut world = World::new();
    world.challenge_scope = Some("mcp:basic");
    world.prm_scopes = Some(vec!["mcp:other"]);
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    assert_eq!(w.borrow().authorize[0]["scope"], "mcp:basic");

    let mut world = World::new();
    world.prm_scopes = Some(vec!["mcp:basic", "mcp:read", "mcp:write"]);
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    assert_eq!(
        w.borrow().authorize[0]["scope"],
        "mcp:basic mcp:read mcp:write"
    );

    let (mut p, w) = pair_with(World::new(), code_config());
    let op = connect(&mut p);
    p.ok(op);
    assert!(!w.borrow().authorize[0].contains_key("scope"));
}

#[test]
fn offline_access_only_when_the_authorization_server_lists_it() {
    let mut world = World::new();
    world.prm_scopes = Some(vec!["mcp:basic"]);
    world.as_scopes = Some(vec!["mcp:basic", "offline_access"]);
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    assert_eq!(w.borrow().authorize[0]["scope"], "mcp:basic offline_access");

    let mut world = World::new();
    world.prm_scopes = Some(vec!["mcp:basic"]);
    world.as_scopes = Some(vec!["mcp:basic", "mcp:read"]);
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    assert_eq!(w.borrow().authorize[0]["scope"], "mcp:basic");
}

#[test]
fn step_up_reauthorizes_with_the_union_of_scopes_and_replays_the_call() {
    let mut world = World::new();
    world.challenge_scope = Some("mcp:basic");
    world.prm_scopes = Some(vec!["mcp:profile"]);
    world.call_scope = Some("mcp:write");
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    let call = call_tool(&mut p);
    p.pump();
    assert_eq!(p.ok(call)["content"][0]["text"], "ok");
    let w = w.borrow();
    assert_eq!(w.authorize.len(), 2);
    assert_eq!(w.authorize[0]["scope"], "mcp:basic");
    assert_eq!(w.authorize[1]["scope"], "mcp:basic mcp:write");
}

#[test]
fn step_up_stops_after_three_authorizations() {
    let mut world = World::new();
    world.always_403 = true;
    world.challenge_scope = Some("mcp:admin");
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    assert!(matches!(
        auth_err(p.err(op)),
        AuthError::StepUpExhausted { attempts: 3, .. }
    ));
    assert_eq!(w.borrow().authorize.len(), 3);
}

#[test]
fn a_403_without_insufficient_scope_is_forbidden_not_a_new_flow() {
    let w = Rc::new(RefCell::new(World::new()));
    let w2 = w.clone();
    let mut pair = Pair::new(session_config(code_config()), move |req: &HttpRequest| {
        if !req.extras.oauth && req.method == Method::Post && method_of(req) == "tools/list" {
            return Reply::json(json!({"error": "forbidden"}))
                .with_status(403)
                .header("WWW-Authenticate", "Bearer error=\"access_denied\"");
        }
        w2.borrow_mut().serve(req)
    });
    let op = pair.session.connect(0);
    pair.pump();
    pair.ok(op);
    let list = pair
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 0);
    pair.pump();
    assert!(matches!(
        auth_err(pair.err(list)),
        AuthError::Forbidden { .. }
    ));
    assert_eq!(w.borrow().authorize.len(), 1);
}

// ---- refresh -----------------------------------------------------------------------------------

#[test]
fn an_expiring_token_is_refreshed_before_the_request_and_rotation_kept() {
    let mut world = World::new();
    world.refresh = true;
    world.expires_in = 120;
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    assert_eq!(w.borrow().tokens_req.len(), 1);
    // 61 s before expiry is inside the 60 s skew? No: at t+59 s the token has 61 s left.
    p.advance(59_000);
    let a = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(a);
    assert_eq!(w.borrow().tokens_req.len(), 1, "refreshed too early");
    p.advance(2_000);
    let b = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(b);
    let w = w.borrow();
    assert_eq!(w.tokens_req.len(), 2);
    let (form, _, _) = &w.tokens_req[1];
    assert!(form.contains(&("grant_type".into(), "refresh_token".into())));
    assert!(form.contains(&("refresh_token".into(), "REFRESH-2".into())));
    assert!(form.iter().any(|(k, v)| k == "resource" && v == MCP));
    // The rotated refresh token replaced the old one in storage.
    let rec: Value = serde_json::from_str(&p.storage[&format!("mcp-edge:tokens:{MCP}")]).unwrap();
    assert_eq!(rec["refresh_token"], "REFRESH-3");
}

/// A token that lives less than the refresh margin (60 s) is used while fresh and refreshed once
/// past half its lifetime, never in a loop (found against oidc-provider with a 2 s lifetime: every
/// refreshed token was "expiring" at once, and requests waited for refreshes forever).
#[test]
fn a_token_shorter_lived_than_the_refresh_margin_is_not_refreshed_in_a_loop() {
    let mut world = World::new();
    world.refresh = true;
    world.expires_in = 30;
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    let list = |p: &mut Pair<_>| {
        let op = p
            .session
            .list_all(ListKind::Tools, RequestOptions::default(), p.now);
        p.pump();
        p.ok(op);
    };
    list(&mut p);
    assert_eq!(
        w.borrow().tokens_req.len(),
        1,
        "a fresh token is used as it is"
    );
    p.advance(16_000);
    list(&mut p);
    assert_eq!(
        w.borrow().tokens_req.len(),
        2,
        "refreshed past half its lifetime"
    );
    list(&mut p);
    assert_eq!(
        w.borrow().tokens_req.len(),
        2,
        "the new token is used, not refreshed again"
    );
    // A token without lifetime (expires_in 0) is sent, not refreshed before every request.
    w.borrow_mut().expires_in = 0;
    p.advance(16_000);
    list(&mut p);
    let after = w.borrow().tokens_req.len();
    assert_eq!(after, 3);
    list(&mut p);
    assert_eq!(
        w.borrow().tokens_req.len(),
        after,
        "no refresh right after a refresh"
    );
}

#[test]
fn a_401_without_a_readable_challenge_probes_the_well_known_urls_and_says_which_header_to_expose() {
    let world = World {
        prm: Prm::PathAware,
        hide_www: true,
        ..World::new()
    };
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    assert_eq!(
        w.borrow().log[1],
        format!("GET {RS}/.well-known/oauth-protected-resource/mcp"),
        "the path-aware well-known URL is probed without a challenge"
    );
    let said = p.diagnostics();
    assert!(
        said.iter()
            .any(|d| d.contains("Access-Control-Expose-Headers") && d.contains("WWW-Authenticate")),
        "a diagnostic names the header to expose: {said:?}"
    );
}

#[test]
fn a_401_with_a_refresh_token_refreshes_and_a_refused_refresh_signs_in_again() {
    let mut world = World::new();
    world.refresh = true;
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    // The server forgets the access token: refresh works.
    w.borrow_mut().issued.retain(|k, _| k != "TOKEN-2");
    let a = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(a);
    assert_eq!(w.borrow().authorize.len(), 1);
    assert_eq!(w.borrow().tokens_req.len(), 2);
    // Now refresh is refused too: a new authorization runs, still one operation.
    {
        let mut w = w.borrow_mut();
        w.issued.clear();
        w.refuse_grants = vec!["refresh_token"];
    }
    let b = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(b);
    assert_eq!(w.borrow().authorize.len(), 2);
}

// ---- legacy era --------------------------------------------------------------------------------

/// A 2025-11-25 session (without DPoP) against `world` serving as a 2025-era server.
fn legacy_pair(mut world: World) -> (Pair<impl FnMut(&HttpRequest) -> Reply>, Shared) {
    world.legacy = true;
    let mut auth = code_config();
    auth.dpop = false;
    let w = Rc::new(RefCell::new(world));
    let w2 = w.clone();
    let mut cfg = session_config(auth);
    cfg.protocol = ProtocolChoice::Exact("2025-11-25".into());
    let pair = Pair::new(cfg, move |req: &HttpRequest| w2.borrow_mut().serve(req));
    (pair, w)
}

#[test]
fn legacy_initialize_401_authorizes_and_every_request_carries_the_token() {
    let (mut p, w) = legacy_pair(World::new());
    let op = connect(&mut p);
    assert_eq!(p.ok(op)["era"], "legacy");
    let list = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(list);
    let w = w.borrow();
    // initialize (401), flow, initialize, initialized, GET stream, tools/list: all but the first tokened.
    let mcp: Vec<_> = w.mcp_auth_headers.iter().map(|(a, _)| a.clone()).collect();
    assert_eq!(mcp[0], "");
    assert!(mcp[1..].iter().all(|a| a == "Bearer TOKEN-2"), "{mcp:?}");
    assert!(mcp.len() >= 4);
}

/// A legacy session whose GET stream the server refuses `refusals` times with 401 (a nonce
/// challenge when `nonce`), then with 405; the GETs it got.
fn legacy_get_refused(
    refusals: u32,
    nonce: bool,
) -> (Pair<impl FnMut(&HttpRequest) -> Reply>, usize) {
    let mut world = World::new();
    world.get_refusals_left = refusals;
    world.get_refusal_nonce = nonce;
    let (mut p, _) = legacy_pair(world);
    let op = connect(&mut p);
    p.ok(op);
    p.advance(60_000);
    let gets = p.methods().iter().filter(|m| *m == "GET").count();
    (p, gets)
}

#[test]
fn a_get_stream_refused_with_401_again_and_again_gives_up_after_max_attempts_flows() {
    // MCP `basic/authorization`: "Clients SHOULD implement retry limits". The GET stream's
    // refusals count like an operation's: 3 flows (the default max_attempts), then it stays closed.
    let (p, gets) = legacy_get_refused(20, false);
    assert_eq!(gets, 4, "{:?}", p.methods());
    assert!(
        p.events.iter().any(|e| matches!(e, Event::Diagnostic { message } if message.contains("GET stream stays closed"))),
        "{:?}",
        p.events
    );
    assert!(p.session.is_connected(), "the session stays");
}

#[test]
fn a_get_stream_refused_with_a_new_dpop_nonce_each_time_gives_up_after_four_retries() {
    let (p, gets) = legacy_get_refused(20, true);
    assert_eq!(gets, 5, "{:?}", p.methods());
    assert!(
        p.events.iter().any(
            |e| matches!(e, Event::Diagnostic { message } if message.contains("after 4 retries"))
        ),
        "{:?}",
        p.events
    );
}

// ---- DPoP --------------------------------------------------------------------------------------

/// One tab (or process) of an app whose tabs share `world` (give it another tab's store).
fn tab(world: &Rc<RefCell<World>>) -> Pair<impl FnMut(&HttpRequest) -> Reply> {
    let w = world.clone();
    Pair::new(session_config(code_config()), move |r: &HttpRequest| {
        w.borrow_mut().serve(r)
    })
}

/// Two tabs of an app sharing `world`.
struct Tabs<F: FnMut(&HttpRequest) -> Reply> {
    world: Rc<RefCell<World>>,
    a: Pair<F>,
    b: Pair<F>,
}

/// Tab A signed in and connected; tab B opened on A's store (its stored tokens loaded).
fn connected_tabs(world: World) -> Tabs<impl FnMut(&HttpRequest) -> Reply> {
    let world = Rc::new(RefCell::new(world));
    let mut a = tab(&world);
    let c = a.session.connect(0);
    a.pump();
    a.ok(c);
    let mut b = tab(&world);
    b.storage = a.storage.clone();
    b.pump();
    Tabs { world, a, b }
}

#[test]
fn stored_dpop_tokens_wait_for_the_key_so_the_first_request_carries_a_proof() {
    let mut world = World::new();
    world.dpop = true;
    // B: another tab (or the reloaded page) with the same store and key store.
    let Tabs { world, mut b, .. } = connected_tabs(world);
    let seen = world.borrow().mcp_auth_headers.len();
    let c = b.session.connect(0);
    b.pump();
    b.ok(c);
    let w = world.borrow();
    let (first, proof) = &w.mcp_auth_headers[seen];
    assert!(first.starts_with("DPoP "), "{first}");
    assert!(proof.is_some(), "the first request went without a proof");
    assert_eq!(
        w.tokens_req.len(),
        1,
        "no refresh for a token that was valid"
    );
}

#[test]
fn dpop_binds_the_token_with_fresh_proofs_and_honours_both_nonces() {
    let mut world = World::new();
    world.dpop = true;
    world.as_nonce = Some("as-nonce");
    world.rs_nonce = Some("rs-nonce");
    let (mut p, w) = pair_with(world, code_config());
    let op = connect(&mut p);
    p.ok(op);
    let list = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(list);
    let w = w.borrow();
    // Token endpoint: first proof without nonce refused, the retry carries the AS nonce.
    assert_eq!(w.tokens_req.len(), 2);
    let c0 = claims_of(w.tokens_req[0].2.as_deref().unwrap()).unwrap();
    let c1 = claims_of(w.tokens_req[1].2.as_deref().unwrap()).unwrap();
    assert_eq!(c0["htm"], "POST");
    assert_eq!(c0["htu"], format!("{AS}/token"));
    assert!(c0.get("nonce").is_none());
    assert_eq!(c1["nonce"], "as-nonce");
    assert_ne!(c0["jti"], c1["jti"]);
    // The authorization request binds the key (RFC 9449 § 10).
    assert_eq!(
        w.authorize[0]["dpop_jkt"],
        jose::jwk_thumbprint(&json!({"kty": "EC", "crv": "P-256", "x": "test-x", "y": "test-y"}))
            .unwrap()
    );
    // MCP requests: DPoP scheme, ath, the RS nonce after its challenge, never reused jti.
    let tokened: Vec<_> = w
        .mcp_auth_headers
        .iter()
        .filter(|(a, _)| !a.is_empty())
        .collect();
    assert!(
        tokened.iter().all(|(a, _)| a.starts_with("DPoP ")),
        "{tokened:?}"
    );
    let tok = tokened[0].0.strip_prefix("DPoP ").unwrap();
    let claims: Vec<Value> = tokened
        .iter()
        .map(|(_, p)| claims_of(p.as_deref().unwrap()).unwrap())
        .collect();
    assert!(claims
        .iter()
        .all(|c| c["ath"] == jose::access_token_hash(&Secret::new(tok))));
    assert!(claims[0].get("nonce").is_none());
    assert!(claims[1..].iter().all(|c| c["nonce"] == "rs-nonce"));
    let mut jtis: Vec<_> = claims.iter().map(|c| c["jti"].to_string()).collect();
    jtis.dedup();
    assert_eq!(jtis.len(), claims.len());
    // A nonce challenge is not an authorization.
    assert_eq!(w.authorize.len(), 1);
}

// ---- non-interactive grants ----------------------------------------------------------------------

#[test]
fn client_credentials_with_a_secret() {
    let mut world = World::new();
    world.auth_methods = vec!["client_secret_basic"];
    let mut cfg = AuthConfig::new(Grant::ClientCredentials);
    cfg.client = Some(StaticClient {
        issuer: None,
        client_id: "cc-client".into(),
        client_secret: Some(Secret::new("cc-secret")),
        private_key_jwt: false,
        auth_method: None,
    });
    let (mut p, w) = pair_with(world, cfg);
    let op = connect(&mut p);
    p.ok(op);
    let w = w.borrow();
    assert!(w.authorize.is_empty() && w.registrations.is_empty());
    let (form, header, _) = &w.tokens_req[0];
    assert!(form.contains(&("grant_type".into(), "client_credentials".into())));
    assert!(header.as_deref().unwrap().starts_with("Basic "));
}

/// Two clients of one server with their own credentials may share a store: tokens issued to one
/// configured client are not used by another (a new grant), while a record without a client id
/// (written before it was kept) still is.
#[test]
fn stored_tokens_of_another_configured_client_are_not_used() {
    let cc = |id: &str| {
        let mut cfg = AuthConfig::new(Grant::ClientCredentials);
        cfg.client = Some(StaticClient {
            issuer: None,
            client_id: id.into(),
            client_secret: Some(Secret::new("cc-secret")),
            private_key_jwt: false,
            auth_method: None,
        });
        cfg
    };
    let mut world = World::new();
    world.auth_methods = vec!["client_secret_basic"];
    world
        .issued
        .insert("THEIRS".into(), (String::new(), String::new()));
    let (mut p, w) = pair_with(world, cc("mine"));
    p.storage.insert(
        format!("mcp-edge:tokens:{MCP}"),
        json!({"issuer": AS, "resource": MCP, "access_token": "THEIRS", "token_type": "Bearer",
               "expires_at": null, "scope": null, "client_id": "theirs"})
        .to_string(),
    );
    let op = connect(&mut p);
    p.ok(op);
    assert_eq!(w.borrow().tokens_req.len(), 1, "a grant of its own");
    assert_ne!(w.borrow().mcp_auth_headers[0].0, "Bearer THEIRS");
    let stored = p.storage[&format!("mcp-edge:tokens:{MCP}")].clone();
    assert!(stored.contains("\"client_id\":\"mine\""), "{stored}");
    // A record that names no client is used as before.
    let mut world = World::new();
    world.auth_methods = vec!["client_secret_basic"];
    world
        .issued
        .insert("OLD".into(), (String::new(), String::new()));
    let (mut p, w) = pair_with(world, cc("mine"));
    p.storage.insert(
        format!("mcp-edge:tokens:{MCP}"),
        json!({"issuer": AS, "resource": MCP, "access_token": "OLD", "token_type": "Bearer",
               "expires_at": null, "scope": null})
        .to_string(),
    );
    let op = connect(&mut p);
    p.ok(op);
    assert!(w.borrow().tokens_req.is_empty());
    assert_eq!(w.borrow().mcp_auth_headers[0].0, "Bearer OLD");
    // A person's sign-in never takes a machine's client-credentials tokens.
    let mut world = World::new();
    world
        .issued
        .insert("MACHINE".into(), (String::new(), String::new()));
    let (mut p, w) = pair_with(world, code_config());
    p.storage.insert(
        format!("mcp-edge:tokens:{MCP}"),
        json!({"issuer": AS, "resource": MCP, "access_token": "MACHINE", "token_type": "Bearer",
               "expires_at": null, "scope": null, "grant": "client_credentials"})
        .to_string(),
    );
    let op = connect(&mut p);
    p.ok(op);
    assert!(w
        .borrow()
        .mcp_auth_headers
        .iter()
        .all(|(h, _)| h != "Bearer MACHINE"));
    assert!(!w.borrow().authorize.is_empty(), "the person signs in");
}

#[test]
fn an_unanswered_token_request_times_out_and_is_aborted_once() {
    let w = Rc::new(RefCell::new(World::new()));
    let w2 = w.clone();
    let mut cfg = AuthConfig::new(Grant::ClientCredentials);
    cfg.client = Some(StaticClient {
        issuer: None,
        client_id: "cc-client".into(),
        client_secret: Some(Secret::new("cc-secret")),
        private_key_jwt: false,
        auth_method: None,
    });
    // The token endpoint never answers.
    let mut p = Pair::new(session_config(cfg), move |req: &HttpRequest| {
        let reply = w2.borrow_mut().serve(req);
        if req.url.ends_with("/token") {
            reply.held()
        } else {
            reply
        }
    });
    let op = connect(&mut p);
    assert!(p.completed(op).is_none(), "the connect waits for the token");
    let token_ex = p
        .requests
        .iter()
        .find(|(_, _, r)| r.url.ends_with("/token"))
        .map(|(ex, _, _)| *ex)
        .expect("a token request was sent");
    p.advance(mcp_edge::proto::auth::flow::REQUEST_TIMEOUT_MS + 1);
    assert_eq!(
        p.aborted.iter().filter(|x| **x == token_ex).count(),
        1,
        "the token request is abandoned, once"
    );
    assert!(matches!(
        auth_err(p.err(op)),
        AuthError::Network { message, .. } if message == "timed out"
    ));
}

#[test]
fn client_credentials_with_private_key_jwt_sends_an_assertion_for_the_issuer() {
    let mut world = World::new();
    world.auth_methods = vec!["private_key_jwt"];
    let mut cfg = AuthConfig::new(Grant::ClientCredentials);
    cfg.client = Some(StaticClient {
        issuer: None,
        client_id: "jwt-client".into(),
        client_secret: None,
        private_key_jwt: true,
        auth_method: None,
    });
    let (mut p, w) = pair_with(world, cfg);
    let op = connect(&mut p);
    p.ok(op);
    let w = w.borrow();
    let (form, header, _) = &w.tokens_req[0];
    assert!(header.is_none());
    let get = |k: &str| form.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    assert_eq!(
        get("client_assertion_type").as_deref(),
        Some("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
    );
    let c = claims_of(&get("client_assertion").unwrap()).unwrap();
    assert_eq!(
        (c["iss"].as_str(), c["sub"].as_str()),
        (Some("jwt-client"), Some("jwt-client"))
    );
    assert_eq!(c["aud"], AS);
    assert!(c["exp"].as_u64() > c["iat"].as_u64());
}

#[test]
fn jwt_bearer_is_never_retried_nor_replaced() {
    let mut world = World::new();
    world.refuse_grants = vec!["urn:ietf:params:oauth:grant-type:jwt-bearer"];
    let mut cfg = AuthConfig::new(Grant::JwtBearer {
        assertion: Secret::new("WORKLOAD-JWT"),
    });
    cfg.client = Some(StaticClient {
        issuer: None,
        client_id: "wif".into(),
        client_secret: None,
        private_key_jwt: false,
        auth_method: None,
    });
    let (mut p, w) = pair_with(world, cfg);
    let op = connect(&mut p);
    assert!(matches!(
        auth_err(p.err(op)),
        AuthError::TokenRequestFailed { .. }
    ));
    // A second connect does not try again.
    let again = connect(&mut p);
    assert!(p.completed(again).unwrap().is_err());
    let w = w.borrow();
    assert_eq!(w.tokens_req.len(), 1);
    let (form, _, _) = &w.tokens_req[0];
    assert!(form.contains(&("assertion".into(), "WORKLOAD-JWT".into())));
    assert!(form.contains(&("client_id".into(), "wif".into())));
}

#[test]
fn enterprise_managed_exchanges_the_id_token_then_uses_the_id_jag() {
    let mut world = World::new();
    world.auth_methods = vec!["client_secret_basic"];
    let w = Rc::new(RefCell::new(world));
    let w2 = w.clone();
    let idp: Rc<RefCell<Vec<Form>>> = Rc::default();
    let idp2 = idp.clone();
    let mut cfg = AuthConfig::new(Grant::EnterpriseManaged {
        idp_token_endpoint: "http://idp.test/token".into(),
        idp_client_id: "idp-client".into(),
        idp_client_secret: None,
        id_token: Secret::new("ID-TOKEN"),
    });
    cfg.client = Some(StaticClient {
        issuer: None,
        client_id: "xaa-client".into(),
        client_secret: Some(Secret::new("xaa-secret")),
        private_key_jwt: false,
        auth_method: None,
    });
    let mut p = Pair::new(session_config(cfg), move |req: &HttpRequest| {
        if req.url.starts_with("http://idp.test") {
            idp2.borrow_mut()
                .push(uri::parse_form(req.body.as_deref().unwrap()));
            return Reply::json(
                json!({"access_token": "ID-JAG", "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag", "token_type": "N_A"}),
            );
        }
        w2.borrow_mut().serve(req)
    });
    let op = connect(&mut p);
    p.ok(op);
    let ex = &idp.borrow()[0];
    let get = |k: &str| ex.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    assert_eq!(
        get("grant_type"),
        Some("urn:ietf:params:oauth:grant-type:token-exchange")
    );
    assert_eq!(
        get("requested_token_type"),
        Some("urn:ietf:params:oauth:token-type:id-jag")
    );
    assert_eq!(
        get("subject_token_type"),
        Some("urn:ietf:params:oauth:token-type:id_token")
    );
    assert_eq!(get("audience"), Some(AS));
    assert_eq!(get("resource"), Some(MCP));
    assert_eq!(get("client_id"), Some("idp-client"));
    let w = w.borrow();
    let (form, header, _) = &w.tokens_req[0];
    assert!(form.contains(&("assertion".into(), "ID-JAG".into())));
    assert!(form.contains(&(
        "grant_type".into(),
        "urn:ietf:params:oauth:grant-type:jwt-bearer".into()
    )));
    assert!(header.as_deref().unwrap().starts_with("Basic "));
}

// ---- secrets -----------------------------------------------------------------------------------

#[test]
fn no_secret_appears_in_errors_events_or_debug_output() {
    // Sentinels planted as every kind of secret; the flow runs and ends in several errors.
    let mut world = World::new();
    world.refresh = true;
    world.auth_methods = vec!["client_secret_post"];
    let mut cfg = code_config();
    cfg.client = Some(StaticClient {
        issuer: None,
        client_id: "client".into(),
        client_secret: Some(Secret::new("SENTINEL-CLIENT-SECRET")),
        private_key_jwt: false,
        auth_method: None,
    });
    let (mut p, w) = pair_with(world, cfg.clone());
    let op = connect(&mut p);
    p.ok(op);
    // Then a refused refresh and a failing authorization.
    {
        let mut w = w.borrow_mut();
        w.issued.clear();
        w.refuse_grants = vec!["refresh_token", "authorization_code"];
    }
    let op = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    let err = p.err(op).clone();
    let session_dbg = format!("{:?}", p.session);
    let events_dbg = format!("{:?}", p.events);
    let rendered = format!("{err} {err:?} {session_dbg} {events_dbg} {cfg:?}");
    let w = w.borrow();
    let mut secrets: Vec<String> = vec!["SENTINEL-CLIENT-SECRET".into(), "code-1".into()];
    secrets.extend(w.issued.keys().cloned());
    secrets.extend(w.issued.values().map(|(_, r)| r.clone()));
    for q in &w.authorize {
        secrets.push(q["state"].clone());
    }
    for (form, _, _) in &w.tokens_req {
        if let Some((_, v)) = form.iter().find(|(k, _)| k == "code_verifier") {
            secrets.push(v.clone());
        }
    }
    for s in &secrets {
        assert!(!rendered.contains(s.as_str()), "secret {s:?} leaked");
    }
    assert!(rendered.contains("[redacted]"));
}

// ---- sign-in across processes ------------------------------------------------------------------

fn host_config() -> AuthConfig {
    let mut c = code_config();
    c.grant = Grant::AuthorizationCode {
        interaction: Interaction::Host,
    };
    c
}

#[test]
fn a_callback_in_another_process_finishes_from_the_stored_pending_request() {
    let world = Rc::new(RefCell::new(World::new()));
    // Process A: the sign-in starts; the host only gets the URL (a Worker returns it).
    let w = world.clone();
    let mut a = Pair::new(session_config(host_config()), move |r: &HttpRequest| {
        w.borrow_mut().serve(r)
    });
    let op = a.session.connect(0);
    a.pump();
    let url = a.authorize_urls[0].clone();
    a.session
        .abort_authorization(AuthError::InteractionRequired { url: url.clone() }, a.now);
    a.pump();
    assert!(matches!(
        auth_err(a.err(op)),
        AuthError::InteractionRequired { .. }
    ));
    // The person signs in; the authorization server redirects to the callback.
    let back = world.borrow_mut().serve(&HttpRequest {
        method: Method::Get,
        url,
        headers: vec![],
        body: None,
        extras: Default::default(),
    });
    let callback = back
        .headers
        .iter()
        .find(|(k, _)| k == "Location")
        .unwrap()
        .1
        .clone();
    // Process B: fresh session, same storage; the callback completes the sign-in.
    let w = world.clone();
    let mut b = Pair::new(session_config(host_config()), move |r: &HttpRequest| {
        w.borrow_mut().serve(r)
    });
    b.storage = a.storage.clone();
    b.pump();
    let done = b.session.complete_authorization(&callback, b.now);
    b.pump();
    let status = b.ok(done).clone();
    assert_eq!(status["issuer"], AS);
    assert!(!b.storage.keys().any(|k| k.starts_with("mcp-edge:pending:")));
    // The stored tokens serve the next connect without another sign-in.
    let c = b.session.connect(b.now);
    b.pump();
    b.ok(c);
    let w = world.borrow();
    assert_eq!(w.authorize.len(), 1);
    assert_eq!(w.tokens_req.len(), 1);
    // The same callback cannot be used twice.
    drop(w);
    let again = b.session.complete_authorization(&callback, b.now);
    b.pump();
    assert_eq!(auth_err(b.err(again)), &AuthError::StateMismatch);
    // A step-up later in process B starts a new authorization from the metadata the pending
    // request kept: its authorization endpoint and PKCE methods came back with it.
    world.borrow_mut().call_scope = Some("mcp:write");
    let call = call_tool(&mut b);
    b.pump();
    assert!(
        b.completed(call).is_none(),
        "the call waits for the sign-in"
    );
    assert_eq!(b.authorize_urls.len(), 1);
    assert!(b.authorize_urls[0].contains("code_challenge_method=S256"));
}

#[test]
fn a_stale_or_unknown_pending_request_is_refused() {
    let world = Rc::new(RefCell::new(World::new()));
    let w = world.clone();
    let mut a = Pair::new(session_config(host_config()), move |r: &HttpRequest| {
        w.borrow_mut().serve(r)
    });
    a.session.connect(0);
    a.pump();
    let url = a.authorize_urls[0].clone();
    let back = world.borrow_mut().serve(&HttpRequest {
        method: Method::Get,
        url,
        headers: vec![],
        body: None,
        extras: Default::default(),
    });
    let callback = back
        .headers
        .iter()
        .find(|(k, _)| k == "Location")
        .unwrap()
        .1
        .clone();
    // Eleven minutes later, in another process: the pending request has expired.
    let w = world.clone();
    let mut cfg = session_config(host_config());
    cfg.unix_epoch_ms += 11 * 60_000;
    let mut b = Pair::new(cfg, move |r: &HttpRequest| w.borrow_mut().serve(r));
    b.storage = a.storage.clone();
    b.pump();
    let op = b.session.complete_authorization(&callback, b.now);
    b.pump();
    assert!(matches!(
        auth_err(b.err(op)),
        AuthError::AuthorizationDenied { .. }
    ));
    // A state nobody issued.
    let op = b
        .session
        .complete_authorization(&format!("{REDIRECT}?code=x&state=nobody"), b.now);
    b.pump();
    assert_eq!(auth_err(b.err(op)), &AuthError::StateMismatch);
    assert!(world.borrow().tokens_req.is_empty());
}

#[test]
fn sign_in_can_start_before_any_refusal() {
    let (mut p, w) = pair_with(World::new(), code_config());
    p.pump();
    let op = p.session.authorize(p.now);
    p.pump();
    assert_eq!(p.ok(op)["issuer"], AS);
    let c = connect(&mut p);
    p.ok(c);
    // The connect went out with the token at once.
    assert_eq!(w.borrow().mcp_auth_headers[0].0, "Bearer TOKEN-2");
}

// ---- one refresh across tabs -------------------------------------------------------------------

#[test]
fn a_refresh_holds_the_lock_and_saves_before_releasing_it() {
    let mut world = World::new();
    world.refresh = true;
    world.expires_in = 30;
    let (mut p, w) = pair_with(world, code_config());
    let c = connect(&mut p);
    p.ok(c);
    // Past half of the 30-second token's life: due.
    p.advance(20_000);
    p.hold_locks = true;
    let list = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    assert_eq!(
        p.locks,
        vec![format!("mcp-edge:refresh:{AS}:client-{AS}-1")]
    );
    assert!(
        p.completed(list).is_none(),
        "the request did not wait for the lock"
    );
    assert_eq!(w.borrow().tokens_req.len(), 1, "refreshed without the lock");
    let events_before = p.events.len();
    p.session.handle_auth_locked(p.now);
    p.pump();
    p.ok(list);
    assert_eq!(w.borrow().tokens_req.len(), 2);
    // The new tokens were saved before the lock was released.
    let order: Vec<&str> = p.events[events_before..]
        .iter()
        .filter_map(|e| match e {
            Event::Auth(AuthEvent::Save { key, .. }) if key.contains(":tokens:") => Some("save"),
            Event::Auth(AuthEvent::Unlock { .. }) => Some("unlock"),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec!["save", "unlock"]);
}

#[test]
fn two_tabs_refresh_once_and_the_second_adopts_the_first_ones_tokens() {
    let mut world = World::new();
    world.refresh = true;
    world.expires_in = 30;
    // Tab B opens with the same store (it loads A's tokens).
    let Tabs {
        world,
        mut a,
        mut b,
    } = connected_tabs(world);
    let c = b.session.connect(0);
    b.pump();
    b.ok(c);
    // Both tokens are about to expire. A refreshes first (the lock serialises them).
    let la = a
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 20_000);
    a.pump();
    a.ok(la);
    assert_eq!(world.borrow().tokens_req.len(), 2);
    // B takes the lock after A released it, re-reads the store, and finds A's new tokens.
    b.storage = a.storage.clone();
    let lb = b
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), 20_000);
    b.pump();
    b.ok(lb);
    let w = world.borrow();
    assert_eq!(
        w.tokens_req.len(),
        2,
        "the second tab refreshed again (a rotated refresh token would now be revoked)"
    );
    let last = w.mcp_auth_headers.last().unwrap().0.clone();
    assert_eq!(
        last, "Bearer TOKEN-3",
        "tab B did not use the refreshed token"
    );
}

#[test]
fn tokens_changed_in_another_tab_are_adopted_and_a_sign_out_there_is_followed() {
    let mut world = World::new();
    world
        .issued
        .insert("OTHER".into(), (String::new(), String::new()));
    let (mut p, w) = pair_with(world, code_config());
    let c = connect(&mut p);
    p.ok(c);
    let key = format!("mcp-edge:tokens:{MCP}");
    let other = json!({"issuer": AS, "resource": MCP, "access_token": "OTHER", "token_type": "Bearer", "expires_at": null, "refresh_token": null, "scope": null}).to_string();
    p.session.handle_auth_loaded(&key, Some(&other), p.now);
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(l);
    assert_eq!(
        w.borrow().mcp_auth_headers.last().unwrap().0,
        "Bearer OTHER"
    );
    // Signed out elsewhere: the next request goes without a token (and signs in again).
    p.session.handle_auth_loaded(&key, None, p.now);
    let l = p
        .session
        .list_all(ListKind::Tools, RequestOptions::default(), p.now);
    p.pump();
    p.ok(l);
    let heads: Vec<String> = w
        .borrow()
        .mcp_auth_headers
        .iter()
        .map(|(a, _)| a.clone())
        .collect();
    assert!(heads.iter().rev().any(|h| h.is_empty()), "{heads:?}");
}

// Runs in the runtime `wasm-pack test` asks for (see tests/wasm-test-mode).
mcp_edge_wasm_test_mode::configure!();
