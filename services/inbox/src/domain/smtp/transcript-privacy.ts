import type { StoredTranscript } from "./stored-transcript";

/** What replaces the credentials of an AUTH exchange: the command's arguments and each continuation line. */
export const REDACTED = "[redacted]";

/** The SASL mechanisms an AUTH command may name and keep in a transcript; any other word there is redacted too. */
const MECHANISMS = /^(PLAIN|LOGIN|CRAM-MD5|DIGEST-MD5|XOAUTH2|OAUTHBEARER|SCRAM-SHA-1|SCRAM-SHA-256|NTLM|GSSAPI|EXTERNAL|ANONYMOUS)$/i;
/**
 * The commands that end an AUTH exchange: a line starting with one is the client's next command,
 * not a continuation line. A continuation line is base64, without spaces; of these verbs only the
 * argless ones are also base64, and they decode to bytes no user name or password holds.
 */
const COMMAND = /^(HELO|EHLO|LHLO|MAIL|RCPT|DATA|BDAT|RSET|NOOP|QUIT|VRFY|EXPN|HELP|STARTTLS|AUTH)(?=[ \t:]|$)/i;

/**
 * A client line as it may be kept, and whether an AUTH exchange goes on after it (`inAuth`:
 * whether one was going on before it). An AUTH command keeps its mechanism only; every line after
 * it up to the client's next command is a continuation line (user name, password, a response, or
 * `*` to cancel) and is kept as `[redacted]`, whatever the server answered: AUTH is not offered,
 * but a client may send its credentials all the same. smtp-server hides an exchange it runs
 * itself as `/* secured *\/`, redacted the same way here.
 */
export function redacted(line: string, inAuth = false): { text: string; inAuth: boolean } {
  const auth = /^AUTH(?=[ \t]|$)(?:[ \t]+(\S+))?/i.exec(line);
  if (auth) {
    const mechanism = auth[1];
    const rest = line.slice(auth[0].length).trim();
    if (mechanism === undefined) return { text: line.trimEnd(), inAuth: true };
    if (!MECHANISMS.test(mechanism)) return { text: `${line.slice(0, 4)} ${REDACTED}`, inAuth: true };
    return { text: rest ? `${line.slice(0, 4)} ${mechanism} ${REDACTED}` : `${line.slice(0, 4)} ${mechanism}`, inAuth: true };
  }
  if (inAuth && !COMMAND.test(line)) {
    // `*` cancels the exchange (RFC 4954 4)
    return { text: REDACTED, inAuth: line.trim() !== "*" };
  }
  if (line === "/* secured */") return { text: REDACTED, inAuth };
  return { text: line, inAuth: false };
}

/** The address of a RCPT TO line, lower-cased; null when the line names none. */
function rcptAddress(line: string): string | null {
  const m = /^RCPT[ \t]+TO:[ \t]*<([^>]*)>/i.exec(line) ?? /^RCPT[ \t]+TO:[ \t]*(\S+)/i.exec(line);
  return m ? m[1]!.trim().toLowerCase() : null;
}

/**
 * A stored transcript as the API serves it to the inbox of `recipient`: the RCPT TO lines (and
 * the reply to each) of any other address left out, and every line of an AUTH exchange redacted.
 * Transcripts are stored that way already; this holds for those stored before they were, too.
 */
export function servedTranscript(t: StoredTranscript, recipient: string): StoredTranscript {
  const own = recipient.trim().toLowerCase();
  const lines: StoredTranscript["lines"] = [];
  let inAuth = false;
  let dropReply = false;
  for (const line of t.lines) {
    const [, dir, text] = line;
    if (dir === "s") {
      if (!dropReply) lines.push(line);
      dropReply = false;
      continue;
    }
    dropReply = false;
    if (/^RCPT\b/i.test(text) && rcptAddress(text) !== own) {
      dropReply = true;
      continue;
    }
    const kept = redacted(text, inAuth);
    inAuth = kept.inAuth;
    lines.push(kept.text === text ? line : [line[0], dir, kept.text]);
  }
  return { ...t, lines };
}
