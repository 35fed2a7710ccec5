//! Tasks: a `tools/call` the server answers with a durable handle instead of a result, which the
//! session then drives to its end by polling, in both shapes the protocol has.
//!
//! - **2026-07-28, the Tasks extension** (`io.modelcontextprotocol/tasks`, ext-tasks
//!   `specification/draft/tasks.md`): the server alone decides, for a request that declared the
//!   extension, to answer with a flat `CreateTaskResult` (`resultType: "task"`). `tasks/get`
//!   returns the detailed task with the result, the JSON-RPC error or the `inputRequests` inline;
//!   input goes back with `tasks/update`; `tasks/cancel` is cooperative.
//! - **2025-11-25** (`basic/utilities/tasks`): the client asks with `params.task` for tools whose
//!   `execution.taskSupport` allows it; the result nests the task under `task`; `tasks/get` polls,
//!   `tasks/result` returns the underlying result (and carries the server's requests for input
//!   while the task waits for them).
//!
//! A task lives inside the request op that created it: the op keeps its id, its caller and its
//! input handler, and completes with the final result as if the call had been synchronous. A
//! poll that fails is retried (bounded); the `tools/call` that created the task never is.

use crate::util::vec_map::VecMap;
use serde_json::{json, Map, Value};

use super::{Era, Event, InputId, InputSlot, OpId, OpKind, ProtocolError, RequestState, Session};
use crate::proto::jsonrpc::{codes, ErrorObject};

/// The Tasks extension's identifier (ext-tasks "Extension Identifier").
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// `_meta` key tying a 2025-era message to its task (MCP 2025-11-25 `basic/utilities/tasks`
/// "Associating Task-Related Messages").
pub const META_RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// The shortest wait between two polls, whatever the server suggests (a `pollIntervalMs` of 0
/// would otherwise poll without pause).
pub const MIN_POLL_MS: u64 = 100;
/// Without a server suggestion: the first wait, doubled per poll up to [`DEFAULT_POLL_MAX_MS`].
const DEFAULT_POLL_START_MS: u64 = 500;
const DEFAULT_POLL_MAX_MS: u64 = 5_000;
/// The longest wait between two polls, whatever the server suggests (a hostile or mistaken
/// interval could otherwise park a task for ever).
pub const MAX_POLL_MS: u64 = 60 * 60 * 1000;
/// Polls in a row that may fail (network, broken stream, 5xx, no answer in time) before the task
/// is given up; the wait doubles after each.
pub const MAX_POLL_FAILURES: u32 = 6;
/// Input keys one task may ask for over its lifetime (keys are never reused, so the set of
/// answered keys grows with the task; this bounds it).
const MAX_TASK_INPUTS: usize = 256;

/// Which of the two task shapes a task has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskShape {
    /// The 2026-07-28 Tasks extension.
    Extension,
    /// MCP 2025-11-25 tasks.
    Legacy,
}

impl TaskShape {
    /// `"extension"` or `"2025-11-25"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskShape::Extension => "extension",
            TaskShape::Legacy => "2025-11-25",
        }
    }
    /// Reads [`TaskShape::as_str`].
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "extension" => Some(TaskShape::Extension),
            "2025-11-25" => Some(TaskShape::Legacy),
            _ => None,
        }
    }
}

/// A task's status (ext-tasks "Task Status"; MCP 2025-11-25 the same five).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskStatus {
    /// Being processed.
    Working,
    /// Waiting for input from the client.
    InputRequired,
    /// Finished with a result (a tool result with `isError` too).
    Completed,
    /// Finished with a JSON-RPC error.
    Failed,
    /// Cancelled.
    Cancelled,
}

impl TaskStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }
    /// Reads a wire name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            _ => return None,
        })
    }
    /// Whether the task has ended.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// What the server last said about a task.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskInfo {
    /// The server's id of the task.
    pub task_id: String,
    /// Its shape.
    pub shape: TaskShape,
    /// Its status.
    pub status: TaskStatus,
    /// The server's message about the status, when it sent one.
    pub status_message: Option<String>,
    /// The suggested wait between polls, in ms.
    pub poll_interval_ms: Option<u64>,
    /// How long the server keeps the task after its creation, in ms (`None`: unlimited).
    pub ttl_ms: Option<u64>,
    /// ISO 8601 creation time, as the server wrote it.
    pub created_at: Option<String>,
    /// ISO 8601 time of the last change, as the server wrote it.
    pub last_updated_at: Option<String>,
}

impl TaskInfo {
    /// Reads a task object of either shape (`ttlMs`/`pollIntervalMs` of the extension,
    /// `ttl`/`pollInterval` of 2025-11-25).
    pub fn from_json(v: &Value, shape: TaskShape) -> Result<TaskInfo, ProtocolError> {
        let bad = |m: &str| ProtocolError::InvalidResult(format!("task: {m}"));
        let task_id = v
            .get("taskId")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| bad("taskId must be a non-empty string"))?
            .to_string();
        let status = v
            .get("status")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("status must be a string"))?;
        let status = TaskStatus::parse(status).ok_or_else(|| bad("unknown status"))?;
        let (ttl_key, poll_key) = match shape {
            TaskShape::Extension => ("ttlMs", "pollIntervalMs"),
            TaskShape::Legacy => ("ttl", "pollInterval"),
        };
        let ms = |k: &str| -> Result<Option<u64>, ProtocolError> {
            match v.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(n) => n
                    .as_u64()
                    .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
                    .map(Some)
                    .ok_or_else(|| bad(&format!("{k} must be a non-negative number or null"))),
            }
        };
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        Ok(TaskInfo {
            task_id,
            shape,
            status,
            status_message: text("statusMessage"),
            poll_interval_ms: ms(poll_key)?,
            ttl_ms: ms(ttl_key)?,
            created_at: text("createdAt"),
            last_updated_at: text("lastUpdatedAt"),
        })
    }

    /// As JSON (`taskId`, `shape`, `status`, `statusMessage`, `pollIntervalMs`, `ttlMs`,
    /// `createdAt`, `lastUpdatedAt`), the form hosts and snapshots see.
    #[inline(never)]
    pub fn to_json(&self) -> Value {
        let text = |s: &Option<String>| s.as_deref().map_or(Value::Null, Value::from);
        let ms = |n: Option<u64>| n.map_or(Value::Null, Value::from);
        let mut m = Map::new();
        m.insert("taskId".into(), Value::from(self.task_id.as_str()));
        m.insert("shape".into(), Value::from(self.shape.as_str()));
        m.insert("status".into(), Value::from(self.status.as_str()));
        m.insert("statusMessage".into(), text(&self.status_message));
        m.insert("pollIntervalMs".into(), ms(self.poll_interval_ms));
        m.insert("ttlMs".into(), ms(self.ttl_ms));
        m.insert("createdAt".into(), text(&self.created_at));
        m.insert("lastUpdatedAt".into(), text(&self.last_updated_at));
        Value::Object(m)
    }

    /// Reads [`TaskInfo::to_json`]'s form: the extension's member names, plus `shape`.
    #[inline(never)]
    pub fn from_host_json(v: &Value) -> Option<TaskInfo> {
        let shape = TaskShape::parse(v.get("shape")?.as_str()?)?;
        let mut info = TaskInfo::from_json(v, TaskShape::Extension).ok()?;
        info.shape = shape;
        Some(info)
    }
}

/// What the task's op waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TaskStep {
    /// Nothing in flight: the next poll is due at the op's `wake_at`.
    Idle,
    /// A `tasks/get` is in flight.
    Get,
    /// A `tasks/update` with the collected answers is in flight.
    Update,
    /// 2025-11-25: a `tasks/result` is in flight (it blocks until the task ends and carries the
    /// server's requests for input meanwhile).
    Result,
}

/// A task being driven by its op.
#[derive(Debug)]
pub(super) struct TaskState {
    pub(super) info: TaskInfo,
    pub(super) step: TaskStep,
    /// Session time the task was first seen (the TTL backstop counts from here: later than the
    /// server's `createdAt`, so never early).
    pub(super) seen_at: u64,
    /// Extension: input keys the host answered (never surfaced again; ext-tasks "Task Update
    /// Requests": keys are unique over the task's lifetime). A key withdrawn unanswered may be
    /// surfaced again if the server lists it again.
    /// (A vector: at most [`MAX_TASK_INPUTS`] keys; a hashed set would add its table code.)
    answered: Vec<String>,
    /// Extension: surfaced keys still waiting for the host.
    pub(super) pending: VecMap<String, InputId>,
    /// Extension: answers collected for the next `tasks/update`.
    answers: Map<String, Value>,
    /// Polls in a row that failed.
    failures: u32,
    /// Polls sent.
    polls: u32,
    /// Whether the last status the host saw is the current one (status or message changed).
    reported: Option<(TaskStatus, Option<String>)>,
    /// Status reports emitted so far.
    reports: u32,
}

impl TaskState {
    pub(super) fn new(info: TaskInfo, now: u64) -> Self {
        TaskState {
            info,
            step: TaskStep::Idle,
            seen_at: now,
            answered: Vec::new(),
            pending: VecMap::new(),
            answers: Map::new(),
            failures: 0,
            polls: 0,
            reported: None,
            reports: 0,
        }
    }

    /// When the task's TTL runs out (counted from when the client first saw it).
    pub(super) fn ttl_deadline(&self) -> Option<u64> {
        self.info.ttl_ms.map(|t| self.seen_at.saturating_add(t))
    }

    /// Whether every surfaced input has an answer and some answers wait to be sent.
    fn answers_ready(&self) -> bool {
        self.pending.is_empty() && !self.answers.is_empty()
    }
}

/// What a 2025-era request's `task` member is, from the tool's `execution.taskSupport`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// Not a task (the default when absent).
    #[default]
    Forbidden,
    /// The client may call it as a task.
    Optional,
    /// The client must call it as a task.
    Required,
}

impl TaskSupport {
    /// Reads a tool's `execution.taskSupport` (MCP 2025-11-25 `basic/utilities/tasks`
    /// "Tool-Level Negotiation"); absent or unknown is `Forbidden`.
    pub fn of_tool(tool: &Value) -> TaskSupport {
        match tool
            .get("execution")
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
        {
            Some("required") => TaskSupport::Required,
            Some("optional") => TaskSupport::Optional,
            _ => TaskSupport::Forbidden,
        }
    }
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// Whether a caller wants a 2025-era tool called as a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskPreference {
    /// As a task when the tool requires it (the default).
    #[default]
    Auto,
    /// As a task whenever the tool allows it.
    Prefer,
}

/// Reads a JSON-RPC error object (`code`, `message`, optional `data`).
fn error_object(v: &Value) -> Option<ErrorObject> {
    Some(ErrorObject {
        code: v.get("code")?.as_i64()?,
        message: v.get("message")?.as_str()?.to_string(),
        data: v.get("data").cloned(),
    })
}

impl Session {
    /// Whether this session declares the Tasks extension.
    pub fn tasks_enabled(&self) -> bool {
        self.cfg.extensions.contains_key(TASKS_EXTENSION)
    }

    /// The tasks this session drives now, with the op each belongs to.
    pub fn tasks(&self) -> Vec<(OpId, TaskInfo)> {
        self.ops
            .iter()
            .filter_map(|(id, o)| match &o.kind {
                OpKind::Request(RequestState {
                    task: Some(t),
                    method,
                    ..
                }) if method == "tools/call" => Some((*id, t.info.clone())),
                _ => None,
            })
            .collect()
    }

    /// Resumes a task created earlier (by this client before its host was evicted, or by
    /// another): polls it to its end without sending the `tools/call` again. `info` is what was
    /// known of it ([`TaskInfo::to_json`] of a snapshot or of a `TaskStatus` event).
    pub fn resume_task(&mut self, info: TaskInfo, now: u64) -> OpId {
        if self.task_op(&info.task_id).is_some() {
            // One poller per task: a second would surface its input twice.
            let e = ProtocolError::InvalidConfig(format!(
                "task {} is already being polled by this client",
                info.task_id
            ));
            return self.fail_now(e, now);
        }
        let mut st = RequestState::new("tools/call", Map::new(), TaskPreference::Auto);
        st.task = Some(Box::new(TaskState::new(info, now)));
        let id = self.new_op(
            OpKind::Request(st),
            &super::RequestOptions::default(),
            false,
            now,
        );
        self.task_timing(id, now);
        self.start(id, now);
        id
    }

    /// The params of a 2025-era `tools/call` for `op`: with `task` when the tool requires it (or
    /// allows it and the caller prefers tasks) and the server declared task-augmented tool calls.
    pub(super) fn legacy_task_param(&self, params: &mut Map<String, Value>, pref: TaskPreference) {
        if self.era != Some(Era::Legacy) || params.contains_key("task") {
            return;
        }
        if !self.server_runs_tool_calls_as_tasks() {
            return;
        }
        let support = params
            .get("name")
            .and_then(Value::as_str)
            .and_then(|n| self.tools.get(n))
            .map(|f| f.task_support)
            .unwrap_or_default();
        let wanted = matches!(
            (support, pref),
            (TaskSupport::Required, _) | (TaskSupport::Optional, TaskPreference::Prefer)
        );
        if wanted {
            params.insert("task".into(), json!({}));
        }
    }

    /// Whether a 2025-era `tools/call` must list the tools first, to learn whether the tool is
    /// a task (the server declared task-augmented tool calls and no list was fetched).
    pub(super) fn legacy_needs_tool_list(&self) -> bool {
        self.era == Some(Era::Legacy)
            && !self.tools_listed
            && self.server_runs_tool_calls_as_tasks()
    }

    /// Whether the server declared `tasks.requests.tools.call` (MCP 2025-11-25
    /// `basic/utilities/tasks` "Tool-Level Negotiation": without it a client MUST NOT ask for a
    /// task).
    fn server_runs_tool_calls_as_tasks(&self) -> bool {
        self.server
            .as_ref()
            .and_then(|s| s.capabilities.get("tasks"))
            .and_then(|t| t.get("requests"))
            .and_then(|r| r.get("tools"))
            .and_then(|t| t.get("call"))
            .is_some()
    }

    /// A result of a request op: `Some(result)` back when it is not a task's business.
    pub(super) fn task_result(&mut self, op: OpId, result: Value, now: u64) -> Option<Value> {
        let Some(OpKind::Request(st)) = self.ops.get(&op).map(|o| &o.kind) else {
            return Some(result);
        };
        if let Some(t) = &st.task {
            let (step, shape) = (t.step, t.info.shape);
            self.task_answered(op, step, shape, result, now);
            return None;
        }
        let sent_task = st.params.contains_key("task");
        let is_call = st.method == "tools/call";
        let result_type = result.get("resultType").and_then(Value::as_str);
        // Extension: `resultType: "task"` (ext-tasks "Polymorphic Results"); only for a request
        // that declared the extension, only for `tools/call`.
        if result_type == Some("task") && self.era == Some(Era::Modern) {
            if !is_call || !self.tasks_enabled() {
                let e = ProtocolError::InvalidResult(format!(
                    "a task was created for {}, which {}",
                    st.method,
                    if is_call {
                        "did not declare the tasks extension"
                    } else {
                        "cannot run as a task"
                    }
                ));
                self.finish(op, Err(e), now);
                return None;
            }
            match TaskInfo::from_json(&result, TaskShape::Extension) {
                Ok(info) => self.task_created(op, info, result, now),
                Err(e) => self.finish(op, Err(e), now),
            }
            return None;
        }
        // 2025-11-25: the request carried `task`; the result nests it.
        if sent_task && self.era == Some(Era::Legacy) && result.get("task").is_some() {
            let mut result = result;
            let task = result.get_mut("task").map(Value::take).unwrap_or_default();
            match TaskInfo::from_json(&task, TaskShape::Legacy) {
                Ok(info) => self.task_created(op, info, task, now),
                Err(e) => self.finish(op, Err(e), now),
            }
            return None;
        }
        Some(result)
    }

    /// The op's request became a task: from now on it polls.
    fn task_created(&mut self, op: OpId, info: TaskInfo, detail: Value, now: u64) {
        if let Some(OpKind::Request(st)) = self.ops.get_mut(&op).map(|o| &mut o.kind) {
            st.task = Some(Box::new(TaskState::new(info.clone(), now)));
        }
        self.task_timing(op, now);
        let status = self.task_mut(op).map(|t| (t.info.status, t.info.shape));
        // The seed is "typically (though not necessarily) working" (ext-tasks "Task Creation"),
        // and a CreateTaskResult carries no result, error or inputRequests: any other status is
        // read with `tasks/get` at once.
        let payload = ["result", "error", "inputRequests"]
            .iter()
            .any(|k| detail.get(k).is_some());
        if let Some((st, TaskShape::Extension)) = status {
            if !payload && !matches!(st, TaskStatus::Working | TaskStatus::Cancelled) {
                self.report_task(op);
                return self.send_task_rpc(op, "tasks/get", TaskStep::Get, now);
            }
        }
        self.apply_info(op, info, detail, now);
    }

    /// From the task's creation (or resumption) on, the op's time limits are the task's: the
    /// inactivity limit applies to each poll, the overall limit is `max_task_wait_ms` (not the
    /// request's total limit, which a synchronous call would have had).
    fn task_timing(&mut self, op: OpId, now: u64) {
        let wait = self.cfg.max_task_wait_ms;
        if let Some(o) = self.ops.get_mut(&op) {
            o.started = now;
            o.activity = now;
            o.total_ms = wait;
            o.attempts = 0;
            o.throttle_retries = 0;
        }
    }

    /// The answer to the request of `step`.
    fn task_answered(
        &mut self,
        op: OpId,
        step: TaskStep,
        shape: TaskShape,
        result: Value,
        now: u64,
    ) {
        if let Some(t) = self.task_mut(op) {
            t.failures = 0;
            t.step = TaskStep::Idle;
        }
        if let Some(o) = self.ops.get_mut(&op) {
            // A task may run for hours: the one-shot recoveries and the sign-in budget count per
            // poll, not per task (a token refreshed every hour must not end a long task).
            o.throttle_retries = 0;
            o.auth_flows = 0;
            o.auth_replays = 0;
            o.header_retry_used = false;
            o.version_retry_used = false;
            o.session_retry_used = false;
        }
        match (step, shape) {
            (TaskStep::Update, _) => {
                if let Some(t) = self.task_mut(op) {
                    t.answers.clear();
                }
                self.schedule_poll(op, now, true);
            }
            // 2025-11-25 `tasks/result`: exactly what the request would have returned.
            (TaskStep::Result, TaskShape::Legacy) => self.finish(op, Ok(result), now),
            _ => self.apply_task(op, result, now),
        }
    }

    /// A detailed task (a `tasks/get` result, a creation, a status notification).
    fn apply_task(&mut self, op: OpId, detail: Value, now: u64) {
        let Some(shape) = self.task_mut(op).map(|t| t.info.shape) else {
            return;
        };
        match TaskInfo::from_json(&detail, shape) {
            Ok(info) => self.apply_info(op, info, detail, now),
            Err(e) => self.finish(op, Err(e), now),
        }
    }

    /// A detailed task already read into `info`: the status moves the op on. The final result is
    /// moved out of `detail`, not copied.
    fn apply_info(&mut self, op: OpId, info: TaskInfo, mut detail: Value, now: u64) {
        let Some(t) = self.task_mut(op) else { return };
        let shape = t.info.shape;
        if info.task_id != t.info.task_id {
            let e = ProtocolError::InvalidResult(format!(
                "tasks/get answered for task {:?}, not {:?}",
                info.task_id, t.info.task_id
            ));
            return self.finish(op, Err(e), now);
        }
        let status = info.status;
        t.info = info;
        self.report_task(op);
        // What a task error names (read only when the task ended without a result).
        let ident = |s: &mut Self| {
            s.task_mut(op)
                .map(|t| (t.info.task_id.clone(), t.info.status_message.clone()))
                .unwrap_or_default()
        };
        if status != TaskStatus::InputRequired {
            // Inputs the server no longer waits for are withdrawn from the host.
            self.withdraw_task_inputs(op);
        }
        match (status, shape) {
            (TaskStatus::Completed, TaskShape::Extension) => {
                match detail.get_mut("result").map(Value::take) {
                    Some(r @ Value::Object(_)) => self.finish(op, Ok(r), now),
                    _ => {
                        let e = ProtocolError::InvalidResult(
                            "a completed task must carry its result".into(),
                        );
                        self.finish(op, Err(e), now)
                    }
                }
            }
            (TaskStatus::Failed, TaskShape::Extension) => {
                let (task_id, message) = ident(self);
                let error = detail
                    .get("error")
                    .and_then(error_object)
                    .unwrap_or_else(|| ErrorObject {
                        code: codes::INTERNAL_ERROR,
                        message: message.unwrap_or_else(|| "the task failed".into()),
                        data: None,
                    });
                {
                    let error = Box::new(error);
                    self.finish(op, Err(ProtocolError::TaskFailed { task_id, error }), now)
                }
            }
            (TaskStatus::Cancelled, _) => {
                let (task_id, message) = ident(self);
                let e = ProtocolError::TaskCancelled { task_id, message };
                self.finish(op, Err(e), now)
            }
            // 2025-11-25: the result (or the error) comes from `tasks/result`; while the task
            // waits for input, `tasks/result` is where the server's requests arrive
            // (`basic/utilities/tasks` "Input Required Status": the requestor SHOULD call it).
            (TaskStatus::Completed | TaskStatus::Failed | TaskStatus::InputRequired, _)
                if shape == TaskShape::Legacy =>
            {
                self.send_task_rpc(op, "tasks/result", TaskStep::Result, now)
            }
            (TaskStatus::InputRequired, _) => {
                if let Err(e) = self.surface_task_inputs(op, &detail) {
                    return self.finish(op, Err(e), now);
                }
                self.after_poll(op, now)
            }
            _ => self.after_poll(op, now),
        }
    }

    /// After a poll that did not end the task: sends the collected answers, or waits for the
    /// next poll (the TTL backstop first: a task whose TTL ran out is given up).
    fn after_poll(&mut self, op: OpId, now: u64) {
        let Some(t) = self.task_mut(op) else { return };
        if t.answers_ready() {
            return self.send_update(op, now);
        }
        if t.ttl_deadline().is_some_and(|d| now >= d) {
            let task_id = t.info.task_id.clone();
            let e = ProtocolError::TaskExpired {
                task_id,
                reason: "its time to live ran out before it ended".into(),
            };
            return self.finish(op, Err(e), now);
        }
        self.schedule_poll(op, now, false);
    }

    /// Emits a `TaskStatus` event when the status or its message changed.
    fn report_task(&mut self, op: OpId) {
        let Some(t) = self.task_mut(op) else { return };
        let now_state = (t.info.status, t.info.status_message.clone());
        if t.reported.as_ref() == Some(&now_state) {
            return;
        }
        t.reported = Some(now_state);
        t.reports = t.reports.saturating_add(1);
        let (task, report) = (t.info.clone(), t.reports);
        self.events
            .push_back(Event::TaskStatus { op, task, report });
    }

    /// Extension: surfaces the input requests not seen before (ext-tasks: "Clients SHOULD
    /// deduplicate `inputRequests` keys across consecutive polls").
    fn surface_task_inputs(&mut self, op: OpId, detail: &Value) -> Result<(), ProtocolError> {
        let requests = match detail.get("inputRequests") {
            Some(Value::Object(m)) => m,
            None | Some(Value::Null) => return Ok(()),
            Some(_) => {
                return Err(ProtocolError::InvalidResult(
                    "inputRequests must be an object".into(),
                ))
            }
        };
        let mut fresh = Vec::new();
        let superseded: Vec<(String, InputId)> = {
            let Some(t) = self.task_mut(op) else {
                return Ok(());
            };
            for (key, req) in requests {
                if t.answered.iter().any(|k| k == key) || t.pending.contains_key(key) {
                    continue;
                }
                fresh.push((key.clone(), req.clone()));
            }
            if t.answered.len() + t.pending.len() + fresh.len() > MAX_TASK_INPUTS {
                return Err(ProtocolError::InvalidResult(format!(
                    "the task asked for more than {MAX_TASK_INPUTS} inputs"
                )));
            }
            // `inputRequests` "MUST contain all outstanding requests": a key it no longer lists
            // is not waited for any more.
            t.pending
                .iter()
                .filter(|(k, _)| !requests.contains_key(k.as_str()))
                .map(|(k, i)| (k.clone(), *i))
                .collect()
        };
        for (key, input) in superseded {
            if let Some(t) = self.task_mut(op) {
                t.pending.remove(&key);
            }
            self.inputs.remove(&input);
            self.events.push_back(Event::InputCancelled { input });
        }
        if self.inputs.len() + fresh.len() > super::MAX_OPEN_INPUTS {
            return Err(ProtocolError::InvalidResult(format!(
                "{} inputs open at once (at most {} are accepted)",
                self.inputs.len() + fresh.len(),
                super::MAX_OPEN_INPUTS
            )));
        }
        for (key, req) in fresh {
            let method = super::request::input_method(&key, &req)?;
            let input = InputId(self.next_input);
            self.next_input += 1;
            if let Some(t) = self.task_mut(op) {
                t.pending.insert(key.clone(), input);
            }
            self.inputs.insert(input, InputSlot::TaskInput { op, key });
            let params = req.get("params").cloned().unwrap_or(json!({}));
            self.events.push_back(Event::InputRequest {
                input,
                op: Some(op),
                method,
                params,
            });
        }
        Ok(())
    }

    /// An answer to one of the task's inputs arrived.
    pub(super) fn task_input_answered(&mut self, op: OpId, key: String, value: Value, now: u64) {
        let Some(t) = self.task_mut(op) else { return };
        t.pending.remove(&key);
        // Answered: never surfaced again (ext-tasks: keys are unique over the task's lifetime).
        t.answered.push(key.clone());
        t.answers.insert(key, value);
        if t.answers_ready() && t.step == TaskStep::Idle {
            self.send_update(op, now);
        }
    }

    fn withdraw_task_inputs(&mut self, op: OpId) {
        let Some(t) = self.task_mut(op) else { return };
        if t.pending.is_empty() {
            return;
        }
        let gone: Vec<InputId> = t.pending.values().copied().collect();
        t.pending = VecMap::new();
        for input in gone {
            self.inputs.remove(&input);
            self.events.push_back(Event::InputCancelled { input });
        }
    }

    fn send_update(&mut self, op: OpId, now: u64) {
        let Some(t) = self.task_mut(op) else { return };
        let answers = t.answers.clone();
        let mut params = Map::new();
        params.insert("taskId".into(), Value::from(t.info.task_id.clone()));
        params.insert("inputResponses".into(), Value::Object(answers));
        t.step = TaskStep::Update;
        if let Some(o) = self.ops.get_mut(&op) {
            o.wake_at = None;
        }
        self.send_rpc(op, "tasks/update", params, now);
    }

    /// Sends `tasks/get` or `tasks/result` for the task of `op`.
    fn send_task_rpc(&mut self, op: OpId, method: &str, step: TaskStep, now: u64) {
        let Some(t) = self.task_mut(op) else { return };
        t.step = step;
        t.polls = t.polls.saturating_add(1);
        let mut params = Map::new();
        params.insert("taskId".into(), Value::from(t.info.task_id.clone()));
        if let Some(o) = self.ops.get_mut(&op) {
            o.wake_at = None;
        }
        self.send_rpc(op, method, params, now);
    }

    /// Sends what the task of `op` needs next (the op's timer fired, or it was resumed).
    pub(super) fn drive_task(&mut self, op: OpId, now: u64) {
        let era = self.era;
        let enabled = self.tasks_enabled();
        let Some(t) = self.task_mut(op) else { return };
        // A resumed task must be of this session's kind.
        let fits = match t.info.shape {
            TaskShape::Extension => era == Some(Era::Modern) && enabled,
            TaskShape::Legacy => era == Some(Era::Legacy),
        };
        if !fits {
            let e = ProtocolError::InvalidConfig(format!(
                "a {} task cannot be polled in this session ({}{})",
                t.info.shape.as_str(),
                era.map_or("era unknown", Era::as_str),
                if enabled {
                    ""
                } else {
                    ", tasks extension not declared"
                }
            ));
            return self.finish(op, Err(e), now);
        }
        let Some(t) = self.task_mut(op) else { return };
        if t.answers_ready() {
            return self.send_update(op, now);
        }
        let step = match t.step {
            TaskStep::Result => TaskStep::Result,
            _ => TaskStep::Get,
        };
        let method = if step == TaskStep::Result {
            "tasks/result"
        } else {
            "tasks/get"
        };
        self.send_task_rpc(op, method, step, now)
    }

    /// Sets the op's timer for the next poll: the server's `pollIntervalMs` (never sooner; the
    /// jitter only adds), or a doubling default; never past the TTL (a last poll at the TTL
    /// tells whether the task ended in time). `soon`: right after input was sent, the first
    /// poll waits the shortest interval allowed.
    fn schedule_poll(&mut self, op: OpId, now: u64, soon: bool) {
        let Some(t) = self.task_mut(op) else { return };
        let base = match t.info.poll_interval_ms {
            Some(p) => p.clamp(MIN_POLL_MS, MAX_POLL_MS),
            None if soon => DEFAULT_POLL_START_MS,
            None => DEFAULT_POLL_START_MS
                .saturating_mul(1 << t.polls.saturating_sub(1).min(8))
                .min(DEFAULT_POLL_MAX_MS),
        };
        let ttl = t.ttl_deadline();
        let delay = self.jitter(base);
        let mut at = now.saturating_add(delay);
        if let Some(d) = ttl {
            at = at.min(d.max(now.saturating_add(MIN_POLL_MS)));
        }
        if let Some(o) = self.ops.get_mut(&op) {
            o.wake_at = Some(at);
        }
    }

    /// A task request failed. Polls are retried after a growing pause (a poll executes
    /// nothing); an unknown task (`-32602`, ext-tasks "Protocol Errors") is gone; other JSON-RPC
    /// errors end the op. True when the failure was handled here.
    pub(super) fn task_request_failed(
        &mut self,
        op: OpId,
        failure: &super::exchange::Failure,
        now: u64,
    ) -> bool {
        use super::exchange::Failure;
        let Some(t) = self.task_mut(op) else {
            return false;
        };
        let (task_id, step) = (t.info.task_id.clone(), t.step);
        match failure {
            // 2025-11-25 `tasks/result` answers with the underlying request's error ("MUST
            // return that same JSON-RPC error"), -32602 included.
            Failure::Rpc { error, .. } if step == TaskStep::Result => {
                let e = ProtocolError::TaskFailed {
                    task_id,
                    error: Box::new(error.clone()),
                };
                self.finish(op, Err(e), now);
                true
            }
            Failure::Rpc { error, .. } if error.code == codes::INVALID_PARAMS => {
                let e = ProtocolError::TaskExpired {
                    task_id,
                    reason: format!("the server no longer knows it ({})", error.message),
                };
                self.finish(op, Err(e), now);
                true
            }
            // An internal error of the server (ext-tasks "Protocol Errors") may pass: polled again.
            Failure::Rpc { error, .. } if error.code == codes::INTERNAL_ERROR => {
                self.poll_or_give_up(op, task_id, now)
            }
            Failure::Rpc { .. } => false,
            // The session is over, or the configuration or the credentials are wrong: polling
            // again would not help.
            Failure::Fatal(
                ProtocolError::Closed
                | ProtocolError::NotConnected
                | ProtocolError::InvalidConfig(_)
                | ProtocolError::Auth(_),
            ) => false,
            // Anything else a poll met (no response, a garbled or oversized answer) is retried:
            // a poll executes nothing, and the bound ends the op.
            Failure::Fatal(_) => self.poll_or_give_up(op, task_id, now),
            Failure::Http { status, .. } if *status == 401 || *status == 403 => false,
            Failure::Http { status, .. } if *status < 500 && *status != 429 && *status != 408 => {
                false
            }
            // A 429/503 with Retry-After was handled before this; the rest is transient.
            _ => self.poll_or_give_up(op, task_id, now),
        }
    }

    /// Retries a failed poll, or (too many in a row) stops waiting for the task, which may still
    /// run: [`ProtocolError::TaskTimeout`] names it for a later resume.
    fn poll_or_give_up(&mut self, op: OpId, task_id: String, now: u64) -> bool {
        if !self.poll_failed(op, now) {
            let started = self.ops.get(&op).map_or(now, |o| o.started);
            let e = ProtocolError::TaskTimeout {
                task_id,
                after_ms: now.saturating_sub(started),
            };
            self.finish(op, Err(e), now);
        }
        true
    }

    /// One poll failed in a way worth retrying: wait (doubling) and poll again, within
    /// [`MAX_POLL_FAILURES`].
    pub(super) fn poll_failed(&mut self, op: OpId, now: u64) -> bool {
        let Some(t) = self.task_mut(op) else {
            return false;
        };
        t.failures += 1;
        if t.failures > MAX_POLL_FAILURES {
            return false;
        }
        let failures = t.failures;
        // 2025-11-25: a broken `tasks/result` falls back to polling.
        t.step = TaskStep::Idle;
        let base = t
            .info
            .poll_interval_ms
            .unwrap_or(DEFAULT_POLL_START_MS)
            .clamp(MIN_POLL_MS, MAX_POLL_MS);
        let delay = self.jitter(base.saturating_mul(1 << failures.min(6)).min(MAX_POLL_MS));
        self.events.push_back(Event::Diagnostic {
            message: format!(
                "a task poll failed ({failures} in a row); polling again in {delay} ms"
            ),
        });
        // The failed request is forgotten (its id too: a late answer is ignored).
        self.stop_traffic(op);
        if let Some(o) = self.ops.get_mut(&op) {
            // Polled afresh, not resumed: a 2025-era `tasks/result` stream is not picked up again.
            o.resume_from = None;
            o.activity = now;
            o.wake_at = Some(now.saturating_add(delay));
        }
        true
    }

    /// A deadline of `op` passed; true when it is a task's op and was handled here. An
    /// unanswered poll is retried; the task's own wait limit (`total`) ends the op without
    /// touching the task, which a host can resume by its id.
    pub(super) fn task_timed_out(
        &mut self,
        op: OpId,
        total: bool,
        after_ms: u64,
        now: u64,
    ) -> bool {
        let Some(task_id) = self.task_mut(op).map(|t| t.info.task_id.clone()) else {
            return false;
        };
        self.stop_traffic(op);
        if !total && self.poll_failed(op, now) {
            return true;
        }
        let e = ProtocolError::TaskTimeout { task_id, after_ms };
        self.finish(op, Err(e), now);
        true
    }

    /// A cancelled task op tells the server with `tasks/cancel` (both shapes; ext-tasks "Task
    /// Cancellation": never `notifications/cancelled`). The answer is not waited for. True when
    /// `op` had a task.
    pub(super) fn cancel_task(&mut self, op: OpId, now: u64) -> bool {
        let Some(task_id) = self.task_mut(op).map(|t| t.info.task_id.clone()) else {
            return false;
        };
        let mut params = Map::new();
        params.insert("taskId".into(), Value::from(task_id));
        let st = RequestState::new("tasks/cancel", params, TaskPreference::Auto);
        let id = self.new_op(
            OpKind::Request(st),
            &super::RequestOptions::default(),
            true,
            now,
        );
        self.start(id, now);
        true
    }

    pub(super) fn task_mut(&mut self, op: OpId) -> Option<&mut TaskState> {
        match self.ops.get_mut(&op).map(|o| &mut o.kind) {
            Some(OpKind::Request(RequestState { task: Some(t), .. })) => Some(t),
            _ => None,
        }
    }

    /// The op driving the task `task_id`, if any.
    pub(super) fn task_op(&self, task_id: &str) -> Option<OpId> {
        self.ops.iter().find_map(|(op, o)| match &o.kind {
            OpKind::Request(RequestState { task: Some(t), .. }) if t.info.task_id == task_id => {
                Some(*op)
            }
            _ => None,
        })
    }

    /// A task status notification (2025-11-25 `notifications/tasks/status`, the extension's
    /// `notifications/tasks`): the task's op polls now instead of at its timer.
    pub(super) fn task_notified(&mut self, params: &Value, now: u64) {
        let Some(id) = params.get("taskId").and_then(Value::as_str) else {
            return;
        };
        let Some(op) = self.task_op(id) else { return };
        let idle = self.task_mut(op).is_some_and(|t| t.step == TaskStep::Idle);
        if let Some(o) = self.ops.get_mut(&op).filter(|_| idle) {
            if o.wake_at.is_some() {
                o.wake_at = Some(now);
            }
        }
    }
}
