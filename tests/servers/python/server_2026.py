"""MCP test server for mcp-edge, built on the Python `mcp` SDK (pinned in requirements.txt).

One process serves both protocol eras at `/mcp` over Streamable HTTP:

* 2026-07-28 (stateless): a POST whose `MCP-Protocol-Version` header names a
  modern revision goes to the SDK's single-exchange path (`server/discover`,
  `_meta` envelope checks, `-32020`/`-32022`, `Mcp-Param-*` validation,
  `subscriptions/listen`, `input_required` results with sealed `requestState`).
* 2025 era (initialize + `Mcp-Session-Id`): anything else goes to the SDK's
  stateful session manager (sessions, GET stream, DELETE, 404 for an unknown
  session).

What this file adds on top of the SDK (see tests/servers/README.md for the
exact wire behaviour of each tool):

* cursor paging of `tools/list` with a small page size, so clients must follow
  `nextCursor`;
* tools that exercise progress, multi-round-trip input (MRTR), `x-mcp-header`,
  an invalid `x-mcp-header` a client must drop, `isError`, and runtime tool
  registration with `notifications/tools/list_changed`;
* permissive CORS so a page served from another loopback origin can call it;
* `POST /admin/terminate-sessions`, which ends every 2025-era session so a
  client's "404 -> initialize again" path can be exercised;
* with `--fault-tools`: tools that count their executions per caller-chosen
  key and one that records whether it was cancelled, plus `GET
  /admin/executions` and `GET /admin/tracked` to read them (the fault-injection
  soak and the timeout tests use them).

It binds a socket on 127.0.0.1 itself (port 0 picks a free port), writes the
bound port to `--port-file` once it is ready to serve, and runs until SIGTERM
or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import re
import secrets
from pathlib import Path
from typing import Annotated, Any

from loopback import serve_loopback
from mcp.server.caching import CacheHint
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    ToolAnnotations,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    CallToolResult,
    ClientCapabilities,
    ElicitationCapability,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    FormElicitationCapability,
    InputRequiredResult,
    ListToolsResult,
    MissingRequiredClientCapabilityErrorData,
    PaginatedRequestParams,
    TextContent,
)
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, Field
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse

MODERN = "2026-07-28"
"""First protocol revision without `initialize`; MRTR replaces server-to-client requests from here on."""

MAX_PROGRESS_STEPS = 100
MAX_PROGRESS_DELAY_MS = 5_000
MAX_DYNAMIC_TOOLS = 32
MAX_TRACKED = 100_000
"""Most keys the fault tools remember (executions and tracked states); the oldest go first."""
MAX_TRACKED_DELAY_MS = 60_000
DYNAMIC_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")

# Headers a browser client sends that trigger a CORS preflight. Starlette's
# middleware reflects Access-Control-Request-Headers when "*" is listed; the
# explicit names document what our client needs (a preflight never matches a
# wildcard inside a name such as mcp-param-*, so reflection is what serves the
# Mcp-Param-{Name} headers).
CORS_ALLOW_HEADERS = [
    "*",
    "authorization",
    "content-type",
    "last-event-id",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
    "mcp-param-region",
]
CORS_EXPOSE_HEADERS = ["mcp-session-id", "mcp-protocol-version", "www-authenticate"]


def _is_modern(ctx: Context) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN)


class SumOutput(BaseModel):
    """Structured output of `add`."""

    sum: int = Field(description="a + b")


class Answer(BaseModel):
    """Form schema used by `mrtr_twice` (one required string)."""

    answer: str = Field(description="Any text")


def _elicit(message: str) -> ElicitRequest:
    return ElicitRequest(
        params=ElicitRequestFormParams(
            message=message,
            requested_schema={
                "type": "object",
                "properties": {"answer": {"type": "string", "description": "Any text"}},
                "required": ["answer"],
            },
        )
    )


def _accepted_answer(responses: dict[str, Any] | None, key: str) -> str:
    """The `answer` a client gave to input request `key`, or a -32602 error naming what is wrong."""
    if not responses or key not in responses:
        raise MCPError(code=INVALID_PARAMS, message=f"inputResponses must answer {key!r}")
    response = responses[key]
    if not isinstance(response, ElicitResult):
        raise MCPError(code=INVALID_PARAMS, message=f"inputResponses[{key!r}] is not an elicitation result")
    if response.action != "accept":
        # A user's refusal is the tool's outcome (isError), not a protocol fault.
        raise ToolError(f"input {key!r} was not accepted: {response.action}")
    if not response.content or not isinstance(response.content.get("answer"), str):
        raise MCPError(code=INVALID_PARAMS, message=f"inputResponses[{key!r}] must carry a string 'answer'")
    return response.content["answer"]


def _require_form_elicitation(ctx: Context) -> None:
    """-32021 unless the request's clientCapabilities declare form elicitation (a bare `{}` counts)."""
    capabilities = ctx.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    if elicitation is not None and (elicitation.form is not None or elicitation.url is None):
        return
    required = ClientCapabilities(elicitation=ElicitationCapability(form=FormElicitationCapability()))
    raise MCPError(
        code=MISSING_REQUIRED_CLIENT_CAPABILITY,
        message="mrtr_twice needs the form elicitation client capability",
        data=MissingRequiredClientCapabilityErrorData(required_capabilities=required).model_dump(
            by_alias=True, mode="json", exclude_none=True
        ),
    )


def _encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"offset:{offset}".encode()).decode().rstrip("=")


def _decode_cursor(cursor: str | None) -> int:
    if cursor is None:
        return 0
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        prefix, _, number = raw.partition(":")
        offset = int(number)
        if prefix != "offset" or offset < 0:
            raise ValueError(raw)
    except ValueError:
        raise MCPError(code=INVALID_PARAMS, message="Invalid cursor") from None
    return offset


def build_server(page_size: int, tools_ttl_ms: int, fault_tools: bool = False) -> MCPServer:
    """Create the MCPServer with every test tool registered."""
    cache_hints = {"tools/list": CacheHint(ttl_ms=tools_ttl_ms, scope="private")} if tools_ttl_ms > 0 else None
    mcp = MCPServer(
        "mcp-edge-py-test",
        version="1.0.0",
        instructions="Test server for mcp-edge. Tools are deterministic except slow_progress timing.",
        cache_hints=cache_hints,
    )
    dynamic_tools: list[str] = []

    @mcp.tool(description="Add two integers; returns text and structuredContent {sum}.")
    def add(a: int, b: int) -> Annotated[CallToolResult, SumOutput]:
        total = a + b
        return CallToolResult(
            content=[TextContent(type="text", text=f"{a} + {b} = {total}")],
            structured_content={"sum": total},
        )

    @mcp.tool(description="Echo the message back as text.", structured_output=False)
    def echo(message: str) -> str:
        return message

    @mcp.tool(
        description=f"Send `steps` progress notifications (1..steps of total steps), one every `delay_ms` "
        f"milliseconds, then return. Limits: steps <= {MAX_PROGRESS_STEPS}, delay_ms <= {MAX_PROGRESS_DELAY_MS}.",
        structured_output=False,
    )
    async def slow_progress(steps: int, delay_ms: int, ctx: Context) -> str:
        if not 0 <= steps <= MAX_PROGRESS_STEPS or not 0 <= delay_ms <= MAX_PROGRESS_DELAY_MS:
            raise ToolError(f"steps must be 0..{MAX_PROGRESS_STEPS} and delay_ms 0..{MAX_PROGRESS_DELAY_MS}")
        for step in range(1, steps + 1):
            await asyncio.sleep(delay_ms / 1000)
            await ctx.report_progress(step, steps, f"step {step}/{steps}")
        return f"done {steps} steps"

    @mcp.tool(
        description="Asks for input twice before completing. 2026-07-28: returns resultType input_required "
        "(input request 'first', then 'second', each with a new requestState) and completes on the third "
        "call (-32021 if clientCapabilities lack elicitation). 2025 era: sends two elicitation/create requests on the "
        "call's stream."
    )
    async def mrtr_twice(ctx: Context) -> CallToolResult | InputRequiredResult:
        if not _is_modern(ctx):
            first = await ctx.elicit("mrtr_twice: first question", Answer)
            second = await ctx.elicit("mrtr_twice: second question", Answer)
            if first.action != "accept" or second.action != "accept":
                raise ToolError(f"elicitation not accepted: {first.action}/{second.action}")
            return _mrtr_done(first.data.answer, second.data.answer)
        _require_form_elicitation(ctx)
        state = ctx.request_state
        if state is None:
            # Round 1. The SDK seals requestState on the way out and verifies the
            # client's echo on the way in (any byte changed -> -32602); the
            # handler only ever sees the plaintext it minted.
            return InputRequiredResult(
                input_requests={"first": _elicit("mrtr_twice: first question")},
                request_state=json.dumps({"round": 1, "nonce": secrets.token_hex(8)}),
            )
        try:
            decoded = json.loads(state)
            round_no = decoded["round"]
        except (ValueError, KeyError, TypeError):
            raise MCPError(code=INVALID_PARAMS, message="requestState is not one this tool minted") from None
        if round_no == 1:
            first = _accepted_answer(ctx.input_responses, "first")
            return InputRequiredResult(
                input_requests={"second": _elicit("mrtr_twice: second question")},
                request_state=json.dumps({"round": 2, "first": first, "nonce": secrets.token_hex(8)}),
            )
        if round_no == 2 and isinstance(decoded.get("first"), str):
            second = _accepted_answer(ctx.input_responses, "second")
            return _mrtr_done(decoded["first"], second)
        raise MCPError(code=INVALID_PARAMS, message="requestState is not one this tool minted")

    @mcp.tool(
        description="Echo the region and query. `region` carries x-mcp-header 'Region': 2026-07-28 callers "
        "must send Mcp-Param-Region equal to it (the SDK answers 400 / -32020 otherwise).",
        structured_output=False,
    )
    def region_query(
        region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})],
        query: str,
    ) -> str:
        return f"region={region} query={query}"

    @mcp.tool(description="Carries an INVALID x-mcp-header (on a number property): clients must drop this tool.", structured_output=False)
    def bad_header_tool(amount: float) -> str:
        return f"amount={amount}"

    @mcp.tool(description="Carries an INVALID x-mcp-header (contains a space): clients must drop this tool.", structured_output=False)
    def bad_header_space(label: str) -> str:
        return f"label={label}"

    # The SDK refuses to register a tool whose schema carries an invalid
    # x-mcp-header, so the invalid annotations are put in after registration.
    _schema_property(mcp, "bad_header_tool", "amount")["x-mcp-header"] = "Amount"
    _schema_property(mcp, "bad_header_space", "label")["x-mcp-header"] = "Bad Label"

    @mcp.tool(description="Always fails: returns isError true with the text 'Error executing tool fail: requested failure'.", structured_output=False)
    def fail() -> str:
        raise ToolError("requested failure")

    @mcp.tool(
        description="Register a new tool `name` at runtime (it echoes its `text` argument) and announce "
        "notifications/tools/list_changed: on subscriptions/listen streams (2026-07-28) and on this "
        f"session's GET stream (2025 era). At most {MAX_DYNAMIC_TOOLS} such tools.",
        structured_output=False,
    )
    async def add_tool(name: str, ctx: Context) -> str:
        if not DYNAMIC_TOOL_NAME.fullmatch(name):
            raise ToolError("name must match [A-Za-z0-9_.-]{1,64}")
        if mcp._tool_manager.get_tool(name) is not None:
            raise ToolError(f"tool {name!r} already exists")
        if len(dynamic_tools) >= MAX_DYNAMIC_TOOLS:
            raise ToolError(f"at most {MAX_DYNAMIC_TOOLS} runtime tools")
        mcp.add_tool(
            _dynamic_tool(name), name=name, description=f"Runtime tool {name}: echoes text.", structured_output=False
        )
        dynamic_tools.append(name)
        await ctx.notify_tools_changed()
        if not _is_modern(ctx):
            await ctx.session.send_tool_list_changed()
        return f"registered {name}"

    async def list_tools_paged(ctx: Any, params: PaginatedRequestParams) -> ListToolsResult:
        tools = await mcp.list_tools()
        start = _decode_cursor(params.cursor)
        if start > len(tools):
            raise MCPError(code=INVALID_PARAMS, message="Invalid cursor")
        end = start + page_size
        return ListToolsResult(tools=tools[start:end], next_cursor=_encode_cursor(end) if end < len(tools) else None)

    lowlevel = mcp._lowlevel_server
    lowlevel.add_request_handler("tools/list", PaginatedRequestParams, list_tools_paged)

    # 2025-era InitializeResult: advertise tools.listChanged (add_tool sends it
    # on the session's GET stream). The session manager builds the handshake
    # payload from create_initialization_options() with no arguments.
    default_init_options = lowlevel.create_initialization_options

    def init_options_with_list_changed(notification_options=None, *args: Any, **kwargs: Any):
        chosen = notification_options or NotificationOptions(tools_changed=True)
        return default_init_options(chosen, *args, **kwargs)

    lowlevel.create_initialization_options = init_options_with_list_changed
    if fault_tools:
        _add_fault_tools(mcp)
    return mcp


def _remember(table: dict[str, Any], key: str, value: Any) -> None:
    if key not in table and len(table) >= MAX_TRACKED:
        del table[next(iter(table))]
    table[key] = value


def _add_fault_tools(mcp: MCPServer) -> None:
    """Tools whose effects a test reads back: executions per key, and cancellation."""
    executions: dict[str, int] = {}
    tracked: dict[str, str] = {}
    mcp.fault_state = {"executions": executions, "tracked": tracked}  # type: ignore[attr-defined]

    async def count(key: str, delay_ms: int, ctx: Context) -> str:
        if not key or len(key) > 200 or not 0 <= delay_ms <= MAX_TRACKED_DELAY_MS:
            raise ToolError(f"key must be 1..200 characters and delay_ms 0..{MAX_TRACKED_DELAY_MS}")
        n = executions.get(key, 0) + 1
        _remember(executions, key, n)
        # A progress notification first, so the answer comes on an event stream when the
        # request asked for progress.
        await ctx.report_progress(1, 2, "counted")
        if delay_ms:
            await asyncio.sleep(delay_ms / 1000)
        return f"key={key} n={n}"

    @mcp.tool(
        description="Counts one execution of `key` (GET /admin/executions reads the counts), sends one "
        "progress notification, waits `delay_ms`, returns 'key=K n=N'. Has side effects: no hints.",
        structured_output=False,
    )
    async def count_effect(key: str, ctx: Context, delay_ms: int = 0) -> str:
        return await count(key, delay_ms, ctx)

    @mcp.tool(
        description="Like count_effect, but annotated idempotentHint: a client may run it twice.",
        annotations=ToolAnnotations(idempotent_hint=True, destructive_hint=False),
        structured_output=False,
    )
    async def count_idempotent(key: str, ctx: Context, delay_ms: int = 0) -> str:
        return await count(key, delay_ms, ctx)

    @mcp.tool(
        description="Records `tag` as 'running', sleeps `ms`, then 'finished'; 'cancelled' if the request "
        "was cancelled first (2025: notifications/cancelled; 2026: the client closed the stream). GET "
        "/admin/tracked?tag=T reads it.",
        structured_output=False,
    )
    async def sleep_tracked(tag: str, ms: int) -> str:
        if not tag or len(tag) > 200 or not 0 <= ms <= MAX_TRACKED_DELAY_MS:
            raise ToolError(f"tag must be 1..200 characters and ms 0..{MAX_TRACKED_DELAY_MS}")
        _remember(tracked, tag, "running")
        done = False
        try:
            await asyncio.sleep(ms / 1000)
            done = True
        finally:
            _remember(tracked, tag, "finished" if done else "cancelled")
        return f"slept {ms} ms"


def _mrtr_done(first: str, second: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=f"first={first} second={second}")])


def _dynamic_tool(name: str):
    def dynamic(text: str = "") -> str:
        return f"{name}: {text}"

    return dynamic


def _schema_property(mcp: MCPServer, tool: str, prop: str) -> dict[str, Any]:
    registered = mcp._tool_manager.get_tool(tool)
    assert registered is not None, tool
    return registered.parameters["properties"][prop]


def build_app(mcp: MCPServer, loopback_origins_only: bool):
    """The ASGI app: the SDK's Streamable HTTP app plus an admin route, wrapped in CORS."""

    @mcp.custom_route("/admin/terminate-sessions", methods=["POST"])
    async def terminate_sessions(request: Request) -> JSONResponse:
        # Ends every 2025-era session; their ids then answer 404. Uses the
        # session manager's own discard step (private in mcp 2.3.0, pinned).
        manager = mcp.session_manager
        sessions = list(manager._server_instances.items())
        for session_id, transport in sessions:
            await manager._discard_session(session_id, transport)
        return JSONResponse({"terminated": len(sessions)})

    state = getattr(mcp, "fault_state", None)
    if state is not None:

        @mcp.custom_route("/admin/executions", methods=["GET"])
        async def executions(request: Request) -> JSONResponse:
            # Execution counts of count_effect / count_idempotent, optionally for keys with ?prefix=.
            prefix = request.query_params.get("prefix", "")
            return JSONResponse({k: v for k, v in state["executions"].items() if k.startswith(prefix)})

        @mcp.custom_route("/admin/tracked", methods=["GET"])
        async def tracked(request: Request) -> JSONResponse:
            return JSONResponse({"state": state["tracked"].get(request.query_params.get("tag", ""), "unknown")})

    # The SDK's default for a loopback host checks Host and Origin against
    # loopback patterns (403 for any other Origin). Test pages may come from any
    # origin, so by default that check is off; --loopback-origins-only restores it.
    security = None if loopback_origins_only else TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = mcp.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1", transport_security=security)
    return CORSMiddleware(
        app,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=CORS_ALLOW_HEADERS,
        expose_headers=CORS_EXPOSE_HEADERS,
        max_age=600,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = pick a free one)")
    parser.add_argument("--port-file", type=Path, help="write the bound port here once serving")
    parser.add_argument("--page-size", type=int, default=3, help="tools/list page size (default 3)")
    parser.add_argument(
        "--tools-ttl-ms", type=int, default=0, help="ttlMs (cacheScope private) on tools/list results (default 0)"
    )
    parser.add_argument(
        "--fault-tools",
        action="store_true",
        help="add count_effect, count_idempotent, sleep_tracked and GET /admin/executions, /admin/tracked",
    )
    parser.add_argument(
        "--loopback-origins-only",
        action="store_true",
        help="keep the SDK's DNS-rebinding check (Host and Origin must be loopback; else 421/403)",
    )
    args = parser.parse_args()
    if args.page_size < 1:
        parser.error("--page-size must be >= 1")
    app = build_app(build_server(args.page_size, args.tools_ttl_ms, args.fault_tools), args.loopback_origins_only)
    asyncio.run(serve_loopback(lambda _port: app, args.port, args.port_file))


if __name__ == "__main__":
    main()
