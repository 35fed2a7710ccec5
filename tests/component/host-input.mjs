// The host side of `mcp-edge:client/host-input` for the jco runs (run.sh maps the import here).
// Without a handler this host answers nothing: `supported` is empty, as a host that does not
// implement input would say, and the component keeps its capabilities empty.

/** @type {{kinds: string[], answer: (request: object) => object} | null} */
let handler = null;

/** Installs (or, with `null`, removes) the answering handler; returns the requests it saw. */
export function setInputHandler(h) {
  handler = h;
}

/** `supported: func() -> list<input-kind>` */
export function supported() {
  return handler ? handler.kinds : [];
}

/** `answer: func(request) -> result<string, input-refusal>`: a throw is the refusal. */
export function answer(request) {
  if (!handler) throw { code: -32601n, message: "no input handler" };
  return JSON.stringify(handler.answer(request));
}
