// Helpers shared by the component's tests.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

/** The WIT `error` record a failed call threw (jco wraps it in a ComponentError). */
export function witError(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e.payload, `expected a typed WIT error, got ${e}`);
    return e.payload;
  }
  assert.fail("expected the call to fail");
}

/** A loopback port nothing listens on: bind one, then free it. */
export async function refusedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts the Node server `script` (a URL relative to this folder) in a process of its own (the
 * test's process is blocked while a component call runs) and resolves with the process and the
 * first line it printed (its port or ports); closing its stdin stops it.
 */
export async function startServerProcess(script) {
  const child = spawn(process.execPath, [new URL(script, import.meta.url).pathname], { stdio: ["pipe", "pipe", "inherit"] });
  const [line] = await once(createInterface({ input: child.stdout }), "line");
  return { child, line };
}
