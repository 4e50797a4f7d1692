import type { SmtpTranscript } from "@burnbox/contracts";

/** `c`: a command the client sent; `s`: a reply of the server. */
export type Direction = "c" | "s";

/** One line as the intake holds it: when (ms since the epoch), who and what. */
export interface HeldLine {
  at: number;
  dir: Direction;
  text: string;
}

/**
 * A transcript as stored (JSON): times as milliseconds after the first line's (`t0`), each line a
 * triple, so that a transcript costs little more than its text. The API expands it
 * (`expandTranscript`).
 */
export interface StoredTranscript {
  ip: string;
  helo: string | null;
  tls: boolean;
  t0: number;
  lines: Array<[number, Direction, string]>;
}

/** The stored form of what a session said. */
export function storedTranscript(session: { ip: string; helo: string | null; tls: boolean }, lines: readonly HeldLine[]): StoredTranscript {
  const t0 = lines[0]?.at ?? 0;
  return { ip: session.ip, helo: session.helo, tls: session.tls, t0, lines: lines.map((l) => [l.at - t0, l.dir, l.text]) };
}

/** The API's form of a stored transcript. */
export function expandTranscript(t: StoredTranscript): SmtpTranscript {
  return {
    client_ip: t.ip,
    helo: t.helo,
    tls: t.tls,
    lines: t.lines.map(([dt, dir, text]) => ({ at: new Date(t.t0 + dt).toISOString(), dir, text })),
  };
}
