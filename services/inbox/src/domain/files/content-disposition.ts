import contentDisposition from "content-disposition";

/** The longest filename kept (in characters); longer names are cut, keeping the extension when short. */
const MAX_NAME = 150;

/**
 * A filename safe to hand to a browser: no path, no control or bidi-override characters, no
 * quotes or backslashes, no leading dots; "attachment" when nothing is left.
 */
export function safeFilename(name: string, fallback = "attachment"): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    // C0/C1 controls, DEL, and the Unicode bidi controls that make names lie about their extension
    .replace(/\p{Cc}|[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, "")
    .replace(/["*:<>?|]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  const chars = Array.from(cleaned);
  if (chars.length === 0) return fallback;
  if (chars.length <= MAX_NAME) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : "";
  return Array.from(cleaned.slice(0, cleaned.length - ext.length))
    .slice(0, MAX_NAME - ext.length)
    .join("")
    .concat(ext);
}

/**
 * `Content-Disposition: attachment` for a (client-controlled) filename, per RFC 6266: a plain
 * ASCII `filename` for old clients and, when the name is not plain ASCII (or holds a `%`), also
 * `filename*` in UTF-8 (RFC 5987), formatted by the `content-disposition` package.
 */
export function attachmentDisposition(filename: string): string {
  const safe = safeFilename(filename);
  return contentDisposition(safe, { type: "attachment", fallback: safe.replace(/[^\x20-\x7e]/g, "_").replace(/%/g, "_") });
}
