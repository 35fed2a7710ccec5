// Helpers shared by the component's tests.
import assert from "node:assert/strict";

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
