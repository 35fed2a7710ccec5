"""Serving an ASGI app on 127.0.0.1 for the test servers: bind first (port 0 picks a free one),
build the app for the bound port, serve it with uvicorn until SIGTERM or SIGINT, and write the port
to a file once serving (so a caller can wait for the file, with no race)."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path
from typing import Any, Callable

import uvicorn


async def serve_loopback(build: Callable[[int], Any], port: int, port_file: Path | None) -> None:
    """Serves `build(bound_port)` on 127.0.0.1:`port`; writes the bound port to `port_file`."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    bound = sock.getsockname()[1]
    # A bounded graceful shutdown: open listen streams must not hold SIGTERM up.
    config = uvicorn.Config(build(bound), log_level="warning", lifespan="on", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)

    async def announce() -> None:
        while not server.started:
            await asyncio.sleep(0.02)
        if port_file is not None:
            tmp = port_file.with_suffix(".tmp")
            tmp.write_text(f"{bound}\n")
            os.replace(tmp, port_file)
        print(f"listening on http://127.0.0.1:{bound}/mcp", flush=True)

    announcer = asyncio.create_task(announce())
    await server.serve(sockets=[sock])
    announcer.cancel()
