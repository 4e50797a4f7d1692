import type { ParsedMail } from "mailparser";
import sanitizeHtml from "sanitize-html";

/** Attachments with these extensions are dropped on intake (contract notes). */
const EXECUTABLE = /\.(exe|com|bat|cmd|scr|pif|msi|msp|vbs|vbe|js|jse|jar|ps1|psm1|wsf|wsh|hta|cpl|dll|lnk|reg|app|apk|deb|rpm|sh)$/i;

export const isExecutable = (filename: string, contentType: string): boolean =>
  EXECUTABLE.test(filename.trim()) || /x-msdownload|x-msdos-program|x-executable|x-sh\b/i.test(contentType);

/** Mail HTML as a browser may render it: no scripts, handlers, frames or remote forms. */
export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(["img", "center", "font", "span"]),
    allowedAttributes: {
      "*": [
        "style",
        "align",
        "width",
        "height",
        "bgcolor",
        "color",
        "border",
        "cellpadding",
        "cellspacing",
        "class",
        "dir",
        "lang",
        "title",
      ],
      a: ["href", "name", "target", "rel"],
      img: ["src", "alt", "width", "height"],
      font: ["face", "size", "color"],
    },
    allowedSchemes: ["http", "https", "mailto", "cid", "data"],
    allowedSchemesByTag: { img: ["http", "https", "cid", "data"] },
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }) },
  });
}

/**
 * Whether the mail has a text part of its own. For a mail whose only part is text/html, mailparser
 * renders one (html-to-text: URLs in brackets, headings in capitals) as `text`; the stored
 * `body_text` keeps that rendering, but it is not the sender's text. That is the only case: an HTML
 * part below a multipart (related, alternative, mixed beside no text part) yields no `text`.
 */
export function hasOwnText(mail: Pick<ParsedMail, "headers" | "text">): boolean {
  if (mail.text == null) return false;
  const type = mail.headers.get("content-type") as { value?: string } | string | undefined;
  const root = (typeof type === "string" ? type : (type?.value ?? "text/plain")).trim().toLowerCase();
  return root !== "text/html";
}

/** The first 200 characters of the text, whitespace collapsed: the list's preview line. */
export function snippetOf(text: string | null | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim().slice(0, 200);
}

/** The header lines as one string each (unfolded; repeated headers joined with ", "). */
export function flatHeaders(lines: ParsedMail["headerLines"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const idx = line.line.indexOf(":");
    const value = (idx >= 0 ? line.line.slice(idx + 1) : line.line).replace(/\r?\n[ \t]+/g, " ").trim();
    out[line.key] = out[line.key] ? `${out[line.key]}, ${value}` : value;
  }
  return out;
}

// eslint-disable-next-line no-control-regex -- NUL is exactly what Postgres text cannot hold
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as Postgres can store it: NULs dropped, unpaired surrogates replaced by U+FFFD. A mail
 * with such bytes is still stored (a sender would otherwise retry for days); the raw message
 * in storage keeps them as they came.
 */
export function storableText(text: string): string {
  return text.replace(NUL, "").replace(LONE_SURROGATE, "\ufffd");
}

export const storableOrNull = (text: string | null | undefined): string | null => (text == null ? null : storableText(text));

export function storableHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [storableText(k), storableText(v)]));
}
