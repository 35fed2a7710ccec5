// Helpers shared by the component's tests.
import assert from "node:assert/strict";
import { createServer } from "node:net";

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
