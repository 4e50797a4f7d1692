/** One mailbox of an address header: the address and the display name ("" when none). */
export interface MailAddress {
  address: string;
  name: string;
}

/**
 * RFC 2047 encoded words (`=?UTF-8?B?SsO8cmdlbg==?=`) decoded; white space between two encoded
 * words dropped, as the RFC says. A charset Node cannot decode leaves the word as it was.
 */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)/g, "$1")
    .replace(/=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g, (word, charset: string, enc: string, data: string) => {
      try {
        const bytes =
          enc.toUpperCase() === "B"
            ? Buffer.from(data, "base64")
            : Buffer.from(
                data.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
                "latin1",
              );
        return new TextDecoder(charset.replace(/\*.*$/, "")).decode(bytes);
      } catch {
        return word;
      }
    });
}

/** Splits on `sep` outside quotes, angle brackets and comments. */
function splitOutside(value: string, sep: string): string[] {
  const parts: string[] = [];
  let depthAngle = 0;
  let depthComment = 0;
  let quoted = false;
  let cur = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (quoted) {
      if (c === "\\") {
        cur += c + (value[i + 1] ?? "");
        i++;
        continue;
      }
      if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "(") depthComment++;
    else if (c === ")" && depthComment) depthComment--;
    else if (c === "<") depthAngle++;
    else if (c === ">" && depthAngle) depthAngle--;
    else if (c === sep && !depthAngle && !depthComment) {
      parts.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  return parts;
}

const unquote = (s: string) => s.replace(/^"([\s\S]*)"$/, "$1").replace(/\\(.)/g, "$1");

function mailbox(part: string): MailAddress | null {
  const text = part.trim();
  if (!text) return null;
  const angle = /^([\s\S]*?)<([^>]*)>/.exec(text);
  if (angle) {
    return { address: (angle[2] ?? "").trim(), name: decodeWords(unquote((angle[1] ?? "").trim())).trim() };
  }
  // `addr (Name)`: the comment is the name, as older mailers wrote it
  const comment = /^([^\s()]+)\s*\(([^)]*)\)\s*$/.exec(text);
  if (comment) return { address: comment[1] ?? "", name: decodeWords(comment[2] ?? "").trim() };
  return { address: text.replace(/\s+/g, ""), name: "" };
}

/**
 * The mailboxes of an address header (From, To, Cc) as written: `"Smith, Ann" <ann@x.io>,
 * bob@y.io`, groups (`Team: a@x.io, b@x.io;`) flattened, encoded names decoded. Pure and
 * forgiving: what cannot be read as a mailbox is skipped.
 */
export function addressesOf(value: string | undefined): MailAddress[] {
  if (!value) return [];
  const out: MailAddress[] = [];
  for (const raw of splitOutside(value, ",")) {
    let part = raw;
    // a group: `Name: member, member;` — the name precedes a colon outside quotes and brackets
    const colon = splitOutside(part, ":");
    if (colon.length > 1 && !/[<@]/.test(colon[0] ?? "")) part = colon.slice(1).join(":");
    part = part.replace(/;\s*$/, "");
    const box = mailbox(part);
    if (box && (box.address || box.name)) out.push(box);
  }
  return out;
}
