//! [`McpClient`]: one server, from Rust.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::call::{self, wait_op, Call};
use super::cancel::CancelToken;
use super::options::ConnectOptions;
use super::stream::Notifications;
use super::types::{
    typed, CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate,
    Tool,
};
use super::FetchClient as Client;
use crate::client::config::learn_era;
use crate::proto::session::{
    Era, ListKind, ProtocolChoice, ProtocolError, ServerInfo, SessionSnapshot,
};

/// A client's durable state: what [`McpClient::restore`] needs to rebuild it without a request.
/// Its JSON is the same as the JS `client.snapshot()`, so either surface restores the other's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The session's state (era, version, server info, 2025 session id and last event id,
    /// cached lists with the time they had left).
    #[serde(flatten)]
    pub session: SessionSnapshot,
    /// Wall-clock time (`Date.now()`) the snapshot was taken at: cache lifetimes keep running
    /// while no client holds the session.
    #[serde(rename = "savedAt", default, skip_serializing_if = "Option::is_none")]
    pub saved_at: Option<f64>,
}

/// Charges `elapsed_ms` of wall-clock time to a snapshot's cached results (MCP 2026-07-28
/// `server/utilities/caching`, `ttlMs`: lifetimes run on while no isolate holds the session).
pub(crate) fn age_cache(snap: &mut SessionSnapshot, elapsed_ms: u64) {
    snap.cache.retain_mut(|(_, _, left, _)| {
        *left = left.saturating_sub(elapsed_ms);
        *left > 0
    });
}

/// Connects with `options` and teaches the era cache what `auto` detected.
pub(crate) async fn connect_client(
    url: &str,
    options: super::FetchOptions,
) -> Result<(Client, ServerInfo), ProtocolError> {
    let auto = options.session.protocol == ProtocolChoice::Auto;
    let (client, info) = Client::connect(options).await?;
    if auto {
        learn_era(url, info.era);
    }
    Ok((client, info))
}

/// An MCP client connected to one server over Streamable HTTP. Cheap to clone (a shared
/// handle); every method takes `&self`, and the futures it returns are `'static`, so they can be
/// spawned (`wasm_bindgen_futures::spawn_local`) or held by UI components.
#[derive(Clone)]
pub struct McpClient {
    client: Client,
}

impl McpClient {
    /// The driver, for the crate's own layers over one client (`api::apps`).
    #[cfg(feature = "apps")]
    pub(crate) fn driver(&self) -> &Client {
        &self.client
    }
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("server", &self.client.server_info())
            .finish_non_exhaustive()
    }
}

impl McpClient {
    /// Connects to the MCP endpoint `url`: detects the era (`auto`: 2026-07-28 first, then the
    /// 2025 era per the spec's fallback rules) and is ready when this resolves.
    pub async fn connect(url: &str, options: ConnectOptions) -> Result<McpClient, ProtocolError> {
        let session = options.session_config(url)?;
        let (client, _) = connect_client(url, options.client_options(session, None)).await?;
        Ok(McpClient { client })
    }

    /// Signs in to the server at `url` without connecting (`options` must carry
    /// [`ConnectOptions::auth`]): runs the OAuth flow and resolves with who is signed in once the
    /// tokens are stored, where a later [`McpClient::connect`] finds them. Without an
    /// `onAuthorizationUrl` in the auth host an authorization-code flow fails with
    /// `AUTH_INTERACTION_REQUIRED` carrying the URL to send the person to, after storing the
    /// pending request for [`McpClient::complete_authorization`].
    pub async fn sign_in(url: &str, options: ConnectOptions) -> Result<Value, ProtocolError> {
        let session = options.session_config(url)?;
        Client::sign_in(options.client_options(session, None)).await
    }

    /// Finishes a sign-in from the `callback` URL the authorization server redirected to, in
    /// any process sharing the auth storage (the pending request is found by its `state`; the
    /// RFC 9207 `iss` is checked). Resolves with who is signed in; the tokens are stored.
    pub async fn complete_authorization(
        url: &str,
        callback: &str,
        options: ConnectOptions,
    ) -> Result<Value, ProtocolError> {
        let session = options.session_config(url)?;
        Client::complete_authorization(options.client_options(session, None), callback).await
    }

    /// Who is signed in (issuer, scope, token type, expiry; never a token), if OAuth is on.
    pub fn auth_status(&self) -> Option<Value> {
        self.client.auth_status()
    }

    /// Forgets this server's OAuth tokens, stored ones too: the next request signs in again.
    pub fn sign_out(&self) {
        self.client.sign_out();
    }

    /// Rebuilds a connected client from [`McpClient::snapshot`] output without any request (for
    /// hosts that evict isolates). `url` and `options` as for [`McpClient::connect`].
    pub fn restore(
        url: &str,
        snapshot: Snapshot,
        options: ConnectOptions,
    ) -> Result<McpClient, ProtocolError> {
        let session = options.session_config(url)?;
        let mut snap = snapshot.session;
        if let Some(saved_at) = snapshot.saved_at {
            age_cache(&mut snap, (js_sys::Date::now() - saved_at).max(0.0) as u64);
        }
        let client = Client::restore(options.client_options(session, None), snap)?;
        Ok(McpClient { client })
    }

    /// The client's durable state now (serialise it with serde; its JSON matches the JS one).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            session: self.client.snapshot(),
            saved_at: Some(js_sys::Date::now()),
        }
    }

    /// What the server told about itself: era, protocol version, `serverInfo`, capabilities,
    /// instructions.
    pub fn server(&self) -> Option<ServerInfo> {
        self.client.server_info()
    }

    /// The era in use (2026-07-28 is [`Era::Modern`]).
    pub fn era(&self) -> Option<Era> {
        self.client.server_info().map(|i| i.era)
    }

    /// The 2025-era session id, if the server assigned one.
    pub fn session_id(&self) -> Option<String> {
        self.client.session_id()
    }

    /// Replaces (or with `None` removes) an extra header for later requests, e.g. a refreshed
    /// token.
    pub fn set_header(&self, name: &str, value: Option<String>) {
        self.client.set_header(name, value);
    }

    async fn list<T: serde::de::DeserializeOwned>(
        &self,
        kind: ListKind,
    ) -> Result<Vec<T>, ProtocolError> {
        let v = call::list(&self.client, kind, None).await?;
        typed(v, Some(kind.field()))
    }

    /// Every tool (all pages; cached for the server's `ttlMs`). Tools with invalid
    /// `x-mcp-header` annotations are left out (a [`super::Notification::ToolRejected`] says
    /// which).
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ProtocolError> {
        self.list(ListKind::Tools).await
    }

    /// Calls a tool. A tool's own failure is `Ok` with `is_error`; its `structuredContent` is
    /// checked against its `outputSchema` (`OUTPUT_SCHEMA` when it does not conform).
    pub fn call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> Call<Result<CallToolResult, ProtocolError>> {
        let client = self.client.clone();
        let name = name.to_string();
        let arguments = match arguments {
            Value::Null => json!({}),
            v => v,
        };
        Call::new(move |options| {
            Box::pin(async move {
                let v = call::call_tool(&client, &name, arguments, options).await?;
                typed(v, None)
            })
        })
    }

    /// The extensions in play: `(client, server)`, what this client declares and what the
    /// server announced, each identifier to settings.
    pub fn extensions(
        &self,
    ) -> (
        serde_json::Map<String, Value>,
        serde_json::Map<String, Value>,
    ) {
        self.client.extensions()
    }

    /// The calls that became tasks and are being polled now, as last reported (a host that
    /// keeps them, or a [`Snapshot`], can resume them after a restart).
    pub fn tasks(&self) -> Vec<crate::proto::session::TaskInfo> {
        self.client.tasks()
    }

    /// Resumes a task (from [`McpClient::tasks`], a snapshot or a progress report): polls it to
    /// its end without calling the tool again, and resolves like the call would have.
    pub fn resume_task(
        &self,
        task: crate::proto::session::TaskInfo,
    ) -> Call<Result<CallToolResult, ProtocolError>> {
        let client = self.client.clone();
        Call::new(move |options| {
            Box::pin(async move {
                let v = call::resume_task(&client, task, options).await?;
                typed(v, None)
            })
        })
    }

    /// Every resource (all pages).
    pub async fn list_resources(&self) -> Result<Vec<Resource>, ProtocolError> {
        self.list(ListKind::Resources).await
    }

    /// Every resource template (all pages).
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ProtocolError> {
        self.list(ListKind::ResourceTemplates).await
    }

    /// Reads a resource.
    pub fn read_resource(&self, uri: &str) -> Call<Result<ReadResourceResult, ProtocolError>> {
        self.typed_request("resources/read", json!({"uri": uri}))
    }

    /// Every task the server keeps for this client (2025-11-25 `tasks/list`, all pages; the server
    /// must declare `tasks.list`). A 2026-07-28 session has no such list: `InvalidConfig`.
    pub async fn list_tasks(&self) -> Result<Vec<Value>, ProtocolError> {
        self.list(ListKind::Tasks).await
    }

    /// Every prompt (all pages).
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ProtocolError> {
        self.list(ListKind::Prompts).await
    }

    /// Gets a prompt with its arguments (a string map, or `Value::Null` for none).
    pub fn get_prompt(
        &self,
        name: &str,
        arguments: Value,
    ) -> Call<Result<GetPromptResult, ProtocolError>> {
        let mut params = json!({"name": name});
        if !arguments.is_null() {
            params["arguments"] = arguments;
        }
        self.typed_request("prompts/get", params)
    }

    /// `completion/complete` for a prompt or resource-template argument: `reference` is
    /// `{"type": "ref/prompt", "name": ...}` or `{"type": "ref/resource", "uri": ...}`, `argument`
    /// `{"name": ..., "value": ...}`.
    pub fn complete(
        &self,
        reference: Value,
        argument: Value,
        context: Value,
    ) -> Call<Result<Value, ProtocolError>> {
        let mut params = json!({"ref": reference, "argument": argument});
        if !context.is_null() {
            params["context"] = context;
        }
        self.request("completion/complete", params)
    }

    /// Any request by method name (for methods without a helper); the result as JSON.
    pub fn request(&self, method: &str, params: Value) -> Call<Result<Value, ProtocolError>> {
        self.typed_request(method, params)
    }

    fn typed_request<T: serde::de::DeserializeOwned + 'static>(
        &self,
        method: &str,
        params: Value,
    ) -> Call<Result<T, ProtocolError>> {
        let client = self.client.clone();
        let method = method.to_string();
        Call::new(move |options| {
            Box::pin(async move {
                let v = call::run(&client, &method, params, options).await?;
                typed(v, None)
            })
        })
    }

    /// 2026-07-28: opens a `subscriptions/listen` stream for `filter` (`{"toolsListChanged":
    /// true, ...}`); its notifications arrive on [`McpClient::notifications`]. Resolves when the
    /// server ends it; cancel it with `cancel` or by dropping the future. 2025 era: the GET
    /// stream carries them; resolves at once.
    pub async fn subscribe(
        &self,
        filter: Value,
        cancel: Option<&CancelToken>,
    ) -> Result<Value, ProtocolError> {
        let op = self.client.listen(filter);
        wait_op(&self.client, op, cancel).await
    }

    /// The notifications (list changes, logging, progress, diagnostics) as a stream that ends
    /// after the client closes. Read it from one task.
    pub fn notifications(&self) -> Notifications {
        Notifications::new(self.client.clone())
    }

    /// Closes the session (2025 era: DELETE). Requests still running fail with `CLOSED`.
    pub async fn close(&self) -> Result<(), ProtocolError> {
        self.client.close().await
    }

    /// Whether the client was closed.
    pub fn is_closed(&self) -> bool {
        self.client.is_closed()
    }
}
