// Test-only main module around the template Worker: counts, inside the isolate, the timers and
// the global-fetch responses that are still alive, so a test can check that nothing outlives a
// response. GET /_probe answers {timers, openFetches, maxOpenFetches, fetches, evalRefused,
// scope}; every other request goes to the template unchanged.
import worker, { McpAuthStore, McpPins, McpSessions } from "./worker/worker.mjs";

const liveTimers = new Set();
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
globalThis.setTimeout = function (callback, delay, ...args) {
  let id;
  const fire = (...a) => {
    liveTimers.delete(id);
    return callback(...a);
  };
  id = realSetTimeout.call(globalThis, fire, delay, ...args);
  liveTimers.add(id);
  return id;
};
globalThis.clearTimeout = function (id) {
  liveTimers.delete(id);
  return realClearTimeout.call(globalThis, id);
};

let openFetches = 0;
let maxOpenFetches = 0;
let fetches = 0;
const realFetch = globalThis.fetch;
/** Counts a response as open until its body ends, fails or is cancelled. */
globalThis.fetch = async function (input, init) {
  fetches += 1;
  openFetches += 1;
  maxOpenFetches = Math.max(maxOpenFetches, openFetches);
  let open = true;
  const close = () => {
    if (open) {
      open = false;
      openFetches -= 1;
    }
  };
  let response;
  try {
    response = await realFetch.call(globalThis, input, init);
  } catch (e) {
    close();
    throw e;
  }
  if (!response.body) {
    close();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          close();
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        close();
        controller.error(e);
      }
    },
    cancel(reason) {
      close();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};

export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/_probe") {
      // workerd refuses eval and new Function by default; the wasm package must load anyway.
      let evalRefused = false;
      try {
        new Function("return 1")();
      } catch {
        evalRefused = true;
      }
      const scope = { window: typeof window, WebAssembly: typeof WebAssembly };
      return Response.json({ timers: liveTimers.size, openFetches, maxOpenFetches, fetches, evalRefused, scope });
    }
    return worker.fetch(request, env, ctx);
  },
};
export { McpAuthStore, McpPins, McpSessions };
