// Everything the CLI prints passes through here. Text that came from a server (a mail's subject,
// sender, body, attachments' names, an inbox's address, an error message) can hold terminal
// control sequences: OSC 0 sets the window title, CSI 2J clears the screen, OSC 52 writes the
// clipboard, a bare CR overwrites what the line showed. Printed as text, every C0 and C1 control
// and every escape sequence is removed (a body keeps its line breaks and tabs), and so are the
// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder
// what a line shows ("Trojan Source"); printed as JSON, nothing is removed, and the controls JSON
// leaves raw (DEL, C1 and those bidi controls) are escaped as well.

/**
 * One escape sequence (7-bit or 8-bit introducer): CSI `ESC [` or 0x9B with its parameters and
 * final byte; OSC, DCS, SOS, PM and APC (`ESC ] P X ^ _`, 0x9D 0x90 0x98 0x9E 0x9F) up to their
 * terminator (BEL or ST, `ESC \` or 0x9C); any other `ESC` with its intermediate and final
 * byte (so an unterminated string loses its introducer, and what follows prints as plain text).
 */
const ESCAPE_SEQUENCE = new RegExp(
  [
    "(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?",
    "(?:\\u001b[\\]PX^_]|[\\u009d\\u0090\\u0098\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)",
    "\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]?",
  ].join("|"),
  "g",
);
/** C0 controls but TAB and LF, DEL, C1 controls, and the bidi embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_KEEPING_TAB_AND_LF = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with escape sequences and control characters removed; tabs and line breaks kept (CRLF and a bare CR: LF, so a CR cannot overwrite a line). */
export function safeText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(ESCAPE_SEQUENCE, "").replace(CONTROL_KEEPING_TAB_AND_LF, "");
}

/** `text` as one field of one line: as safeText, then line breaks and tabs become a space (a field cannot add a line or a column). */
export function safeField(text: string): string {
  return safeText(text).replace(/[\n\t]+/g, " ");
}

/** JSON as JSON.stringify writes it, with DEL, the C1 controls and the bidi controls escaped too (`\u009b`): the same value, nothing a terminal acts on. */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The program's output: lines of text (made safe), tab-separated rows of fields (each made a safe field), JSON. */
export interface Terminal {
  /** Prints a line (or several) of text: a body, a `Name: value` line. */
  out(text: string): void;
  /** Prints one row: the fields joined by tabs, each on its own made one safe field. */
  row(...fields: Array<string | number | boolean | null | undefined>): void;
  /** Prints a value as indented JSON, or with `oneLine` on one line (a frame of `tail --json`). */
  json(value: unknown, oneLine?: boolean): void;
  /** A line on stderr (messages, errors with the server's text in them). */
  err(text: string): void;
}

export function terminal(io: { out: (line: string) => void; err: (line: string) => void }): Terminal {
  return {
    out: (text) => io.out(safeText(text)),
    row: (...fields) => io.out(fields.map((f) => safeField(String(f ?? ""))).join("\t")),
    json: (value, oneLine) => io.out(safeJson(value, oneLine ? undefined : 2)),
    err: (text) => io.err(safeText(text)),
  };
}
