// A `fetch` for the client's `fetch` option that hands each response body to the client one line
// at a time, with a full turn of the event loop (a task) between two pieces.
//
// Why: the transcript rule (tests/scenarios/README.md, "Ordering rule") is that a received
// message is recorded before the events it causes, and that the session is fed one message at a
// time so read-chunk boundaries cannot change the order. The Rust harness feeds its session "up
// to one line end at a time". In the browser the network may deliver a progress notification and
// the final result in one chunk; the client would then report both messages before either event.
// Pacing the body line by line, and letting every promise reaction of one piece settle (results,
// notifications, input handlers all run as microtasks) before the next piece, gives the wasm
// client exactly the feeding the Rust harness gives its session. Nothing else changes: status,
// headers, bytes and abort behaviour are the real response's.
//
// Lines are split after LF (CRLF ends in LF; the test servers do not use bare CR). A partial
// line is held until its end arrives or the body ends, but never more than `maxHoldBytes`: beyond
// that it is passed on, cut at a UTF-8 character boundary.

const EMPTY = new Uint8Array(0);

/** Resolves in a later task (after every pending microtask), via a MessageChannel. */
function nextTask() {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(0);
  });
}

function concat(a, b) {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** The largest prefix length of `bytes` (at most `max`) that ends on a UTF-8 boundary. */
function utf8Cut(bytes, max) {
  let n = Math.min(max, bytes.length);
  // Step back over continuation bytes (10xxxxxx) so no character is split.
  while (n > 0 && n < bytes.length && (bytes[n] & 0xc0) === 0x80) n--;
  return n;
}

/**
 * Wraps `baseFetch` (default: the global fetch). The result has the real response's `status`,
 * `statusText`, `headers`, `ok`, `url` and a paced `body`.
 */
export function linePacedFetch(baseFetch = globalThis.fetch.bind(globalThis), { maxHoldBytes = 16 << 20 } = {}) {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    const ready = []; // pieces to deliver, in order
    let held = EMPTY; // a partial line
    let ended = false;
    let cancelled = false;
    const body = new ReadableStream(
      {
        async pull(controller) {
          for (;;) {
            if (ready.length > 0) {
              await nextTask();
              if (!cancelled) controller.enqueue(ready.shift());
              return;
            }
            if (ended) {
              await nextTask();
              if (!cancelled) controller.close();
              return;
            }
            // A rejection (abort, reset) errors this stream with the same reason.
            const { done, value } = await reader.read();
            if (done) {
              ended = true;
              if (held.length > 0) ready.push(held);
              held = EMPTY;
              continue;
            }
            let bytes = concat(held, value);
            held = EMPTY;
            let start = 0;
            for (let i = 0; i < bytes.length; i++) {
              if (bytes[i] === 0x0a) {
                ready.push(bytes.subarray(start, i + 1));
                start = i + 1;
              }
            }
            bytes = bytes.subarray(start);
            while (bytes.length > maxHoldBytes) {
              const n = utf8Cut(bytes, maxHoldBytes) || maxHoldBytes;
              ready.push(bytes.subarray(0, n));
              bytes = bytes.subarray(n);
            }
            held = bytes.slice();
          }
        },
        cancel(reason) {
          cancelled = true;
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return {
      status: response.status,
      statusText: response.statusText,
      ok: response.ok,
      url: response.url,
      headers: response.headers,
      body,
    };
  };
}
