//! Answers to the server's input requests (elicitation, sampling, roots), shared by the Rust and
//! JS surfaces: one dispatch by method, with form defaults applied to accepted elicitations.

use std::rc::Rc;

use serde_json::{json, Map, Value};

use crate::client::{InputFuture, InputHandler, InputRequest};
use crate::proto::jsonrpc::{codes, ErrorObject};

/// One registered handler: `(params, extra)` to the result the server gets. `extra` is
/// `{"defaults": {...}}` for elicitation and `null` otherwise.
pub(crate) type HandlerFn = Rc<dyn Fn(Value, Value) -> InputFuture>;

/// The handlers a host registered; each one declares its capability (MCP `client/*`).
#[derive(Clone, Default)]
pub(crate) struct Handlers {
    pub elicitation: Option<HandlerFn>,
    pub sampling: Option<HandlerFn>,
    pub roots: Option<HandlerFn>,
}

impl Handlers {
    /// Adds the capabilities the registered handlers can answer to `caps` (kept when set).
    pub fn declare(&self, caps: &mut Map<String, Value>) {
        if self.elicitation.is_some() {
            caps.entry("elicitation").or_insert(json!({"form": {}}));
        }
        if self.sampling.is_some() {
            caps.entry("sampling").or_insert(json!({}));
        }
        if self.roots.is_some() {
            caps.entry("roots").or_insert(json!({"listChanged": false}));
        }
    }

    /// The driver's input handler, or `None` when nothing is registered (the client then
    /// refuses every input request with "method not found").
    pub fn input_handler(&self) -> Option<InputHandler> {
        if self.elicitation.is_none() && self.sampling.is_none() && self.roots.is_none() {
            return None;
        }
        let handlers = self.clone();
        Some(Rc::new(move |req: InputRequest| {
            let f = match req.method.as_str() {
                "elicitation/create" => handlers.elicitation.clone(),
                "sampling/createMessage" => handlers.sampling.clone(),
                "roots/list" => handlers.roots.clone(),
                _ => None,
            };
            Box::pin(answer(f, req))
        }))
    }
}

async fn answer(f: Option<HandlerFn>, req: InputRequest) -> Result<Value, ErrorObject> {
    let Some(f) = f else {
        return Err(ErrorObject {
            code: codes::METHOD_NOT_FOUND,
            message: format!("no handler registered for {}", req.method),
            data: None,
        });
    };
    if req.method != "elicitation/create" {
        return f(req.params, Value::Null).await;
    }
    // MCP 2025-11-25 `client/elicitation` "Form Mode": clients that support defaults SHOULD
    // pre-populate the form with them; a field the user left out keeps its default.
    let schema = req
        .params
        .get("requestedSchema")
        .cloned()
        .unwrap_or(Value::Null);
    let defaults = Value::Object(crate::proto::elicitation::defaults(&schema));
    let mut result = f(req.params.clone(), json!({"defaults": defaults})).await?;
    crate::proto::elicitation::apply_defaults(&req.params, &mut result);
    Ok(result)
}
