// A push decoder for `text/event-stream`, written from the WHATWG HTML Standard § 9.2.6
// "Interpreting an event stream", used by the transcript recorder to see which messages a response
// stream carried (the client decodes the same bytes itself; this is an independent reading).
//
// Input is text (the recorder gets each body chunk as text); output is one event at a time.
// Rules implemented:
// - a U+FEFF BYTE ORDER MARK at the very start of the stream is skipped, once;
// - lines end with CRLF, LF or CR, also when the CR and the LF arrive in different chunks;
// - an empty line dispatches; a line starting with ":" is a comment; otherwise the field name is
//   what precedes the first ":" and the value what follows it, minus one leading space (no ":":
//   the whole line is the name and the value is empty);
// - `event` sets the type, `data` appends the value and a LF to the data buffer, `id` sets the
//   last event ID unless the value contains U+0000, `retry` is taken only when all ASCII digits;
//   other fields are ignored;
// - dispatch: the last event ID is set; an empty data buffer dispatches nothing; otherwise one
//   trailing LF is removed and the event is emitted; the data and type buffers are reset;
// - at the end of the stream an unterminated event is discarded.
// Bounds: a line longer than `maxLineChars` or an event whose data exceeds `maxEventChars` is an
// error (`SseLimitError`), never unbounded growth.

/** Raised when a line or an event exceeds the decoder's limits. */
export class SseLimitError extends Error {
  constructor(message) {
    super(message);
    this.name = "SseLimitError";
  }
}

export class SseDecoder {
  constructor({ maxLineChars = 16 << 20, maxEventChars = 16 << 20 } = {}) {
    this.maxLineChars = maxLineChars;
    this.maxEventChars = maxEventChars;
    this.started = false;
    this.line = "";
    this.afterCr = false;
    this.data = "";
    this.hasData = false;
    this.type = "";
    this.lastEventId = "";
    this.retry = null;
  }

  /**
   * Feeds a chunk of text; returns the events it completed, in order:
   * `{type, data, lastEventId}`.
   */
  feed(text) {
    const out = [];
    let i = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (; i < text.length; i++) {
      const c = text[i];
      if (this.afterCr) {
        this.afterCr = false;
        if (c === "\n") continue; // the LF of a CRLF split across chunks
      }
      if (c === "\r" || c === "\n") {
        this.afterCr = c === "\r";
        this.processLine(this.line, out);
        this.line = "";
        continue;
      }
      // Copy the run up to the next line end at once.
      let j = i;
      while (j < text.length && text[j] !== "\r" && text[j] !== "\n") j++;
      this.line += text.slice(i, j);
      if (this.line.length > this.maxLineChars) {
        throw new SseLimitError(`an event-stream line exceeds ${this.maxLineChars} characters`);
      }
      i = j - 1;
    }
    return out;
  }

  /** The end of the stream: a pending, unterminated event is discarded (§ 9.2.6). */
  finish() {
    this.line = "";
    this.data = "";
    this.hasData = false;
    this.type = "";
    this.afterCr = false;
    return [];
  }

  processLine(line, out) {
    if (line === "") {
      this.dispatch(out);
      return;
    }
    if (line[0] === ":") return;
    const colon = line.indexOf(":");
    let field;
    let value;
    if (colon < 0) {
      field = line;
      value = "";
    } else {
      field = line.slice(0, colon);
      value = line.slice(colon + 1);
      if (value[0] === " ") value = value.slice(1);
    }
    switch (field) {
      case "event":
        this.type = value;
        break;
      case "data":
        this.data += value + "\n";
        this.hasData = true;
        if (this.data.length > this.maxEventChars) {
          throw new SseLimitError(`an event's data exceeds ${this.maxEventChars} characters`);
        }
        break;
      case "id":
        if (!value.includes("\u0000")) this.lastEventId = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break;
    }
  }

  dispatch(out) {
    if (!this.hasData) {
      this.type = "";
      return;
    }
    let data = this.data;
    if (data.endsWith("\n")) data = data.slice(0, -1);
    out.push({ type: this.type === "" ? "message" : this.type, data, lastEventId: this.lastEventId });
    this.data = "";
    this.hasData = false;
    this.type = "";
  }
}
