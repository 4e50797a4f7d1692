// An email as an agent reads it: plain text, never raw HTML (markup is noise to a model and can
// carry hidden instructions that a reader would never see).
import type { Email, Extracted } from "@burnbox/sdk";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The visible text of an HTML body: scripts, styles and comments dropped, blocks on their own lines, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<a\b[^>]*\bhref\s*=\s*["']([^"']+)["'][^>]*>([\s\S]*?)<\/a\s*>/gi, (_, href: string, inner: string) => `${inner} (${href})`)
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|tr|li|h[1-6]|table|blockquote)\s*>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** One email as text: headers, body, attachments, and the extracted codes and links when the API carries them. */
export function emailAsText(email: Email & { extracted?: Extracted }): string {
  const lines = [
    `Email ${email.id} (inbox ${email.inbox_id})`,
    `From: ${email.from_address}`,
    `To: ${email.to_address}`,
    `Subject: ${email.subject}`,
    `Received: ${email.received_at}`,
  ];
  const { extracted } = email;
  if (extracted && extracted.codes.length > 0) lines.push(`Codes: ${extracted.codes.map((c) => c.value).join(", ")}`);
  if (extracted && extracted.links.length > 0) {
    lines.push("Links:");
    for (const l of extracted.links) lines.push(`- [${l.kind}] ${l.url}${l.text ? ` (${l.text})` : ""}`);
  }
  if (email.attachments.length > 0) {
    lines.push(`Attachments: ${email.attachments.map((a) => `${a.filename} (${a.content_type}, ${a.size_bytes} bytes)`).join("; ")}`);
  }
  const body = email.body_text ?? (email.body_html !== null ? htmlToText(email.body_html) : "");
  lines.push("", body === "" ? "(no body)" : body);
  return lines.join("\n");
}
