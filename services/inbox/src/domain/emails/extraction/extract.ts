import type { Extracted } from "@burnbox/contracts";
import { extractCodes } from "./codes";
import { readHtml } from "./html-text";
import { extractLinks } from "./links";

export interface ExtractInput {
  /** The decoded subject. */
  subject: string;
  /** The text/plain part as sent; null (or only white space) when the mail has none. Not a text rendered from the HTML. */
  text: string | null | undefined;
  /** The text/html part (raw or sanitized: only visible text and `<a href>` are read). */
  html: string | null | undefined;
  /** Header values by name (any case); a repeated header as a list or joined with ", ". */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** A header's value by case-insensitive name; a repeated one joined with ", ". */
export function headerValue(headers: ExtractInput["headers"], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== wanted || v === undefined) continue;
    return typeof v === "string" ? v : v.join(", ");
  }
  return undefined;
}

/**
 * The one-time codes and links of a mail (extensions section 2), computed once at intake. Pure:
 * no network, no disk. The body text is the text part, else the visible text of the HTML part;
 * links come from the HTML's anchors first, then from that body text, then `List-Unsubscribe`.
 */
export function extract(input: ExtractInput): Extracted {
  const html = input.html ? readHtml(input.html) : null;
  const hasText = input.text != null && input.text.trim() !== "";
  const body = hasText ? (input.text as string) : (html?.text ?? "");
  return {
    codes: extractCodes(input.subject, body),
    links: extractLinks({ anchors: html?.anchors ?? [], text: body, listUnsubscribe: headerValue(input.headers, "list-unsubscribe") }),
  };
}
