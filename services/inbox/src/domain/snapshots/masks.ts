import { parseDocument } from "htmlparser2";
import render from "dom-serializer";
import { isTag, isText, type ChildNode } from "domhandler";
import type { RE2JS } from "re2js";

/**
 * The masks of a snapshot (extensions section 12): what differs on every send made to stand
 * still before anything is compared or rendered. Pure rules: no network, no disk.
 *
 * Order, on each text: the snapshot's own masks first (they are written against the mail as it
 * was sent, so a name or an order number they name is still there to match), then the defaults:
 * the values of links' query strings, the email's extracted codes, dates and times, UUIDs, long
 * hex and base64 tokens. Each default leaves a placeholder that no later default matches.
 */

/** What a masked value becomes. */
export const PLACEHOLDER = {
  custom: "[masked]",
  query: "[value]",
  code: "[code]",
  date: "[date]",
  time: "[time]",
  uuid: "[uuid]",
  token: "[token]",
} as const;

/** A compiled custom mask: an RE2 program and its replacement (`$1` names a group). */
export interface CustomMask {
  re: RE2JS;
  replace: string;
}

export interface MaskInput {
  /** The email's extracted codes (extensions section 2): each masked where it stands, split or not. */
  codes: readonly string[];
  custom: readonly CustomMask[];
}

export type Masker = (text: string) => string;

const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/gi;

/** `https://x.test/verify?token=abc&u=42#top` -> `https://x.test/verify?token=[value]&u=[value]#top`. */
export function maskQueryValues(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const hash = url.indexOf("#", q);
  const end = hash < 0 ? url.length : hash;
  const query = url
    .slice(q + 1, end)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      return eq === pair.length - 1 ? pair : `${pair.slice(0, eq + 1)}${PLACEHOLDER.query}`;
    })
    .join("&");
  return `${url.slice(0, q + 1)}${query}${url.slice(end)}`;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A code as it may stand in the text: `123456` also as `123 456` or `123-456` (extensions section 2). */
function codePattern(code: string): RegExp {
  const body = [...code].map(escapeRe).join("[ -]?");
  return new RegExp(`(?<![A-Za-z0-9])${body}(?![A-Za-z0-9])`, "g");
}

const MONTH =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
const WEEKDAY = "(?:Mon(?:day)?|Tue(?:s(?:day)?)?|Wed(?:nesday)?|Thu(?:r(?:s(?:day)?)?)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)";
const ORD = "(?:st|nd|rd|th)?";

/** Dates and times in the forms transactional mail uses; the longest form first. */
const DATE_TIME: readonly { re: RegExp; as: string }[] = [
  // ISO 8601 date-times: 2026-12-02T12:25:03.123Z, 2026-12-02 12:25:03+01:00
  { re: /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:])/g, as: PLACEHOLDER.date },
  // RFC 5322 / 2822 dates: Wed, 2 Dec 2026 12:25:03 +0000
  {
    re: new RegExp(
      `\\b(?:${WEEKDAY},?\\s+)?\\d{1,2}\\s+${MONTH}\\.?\\s+\\d{4}\\s+\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s*(?:[+-]\\d{4}|UTC|GMT|[A-Z]{3,4}))?\\b`,
      "g",
    ),
    as: PLACEHOLDER.date,
  },
  { re: /\b\d{4}-\d{2}-\d{2}\b/g, as: PLACEHOLDER.date },
  { re: /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g, as: PLACEHOLDER.date },
  // Wednesday, December 2nd, 2026 / Dec 2 2026 / December 2
  { re: new RegExp(`\\b(?:${WEEKDAY},?\\s+)?${MONTH}\\.?\\s+\\d{1,2}${ORD}\\b(?:,?\\s+\\d{4}\\b)?`, "g"), as: PLACEHOLDER.date },
  // 2 December 2026 / 2nd Dec
  { re: new RegExp(`\\b(?:${WEEKDAY},?\\s+)?\\d{1,2}${ORD}\\s+${MONTH}\\b\\.?(?:,?\\s+\\d{4}\\b)?`, "g"), as: PLACEHOLDER.date },
  // 12:25, 12:25:03, 9:05 pm, 21:05 UTC
  {
    re: /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?(?![A-Za-z]))?(?:\s?(?:UTC|GMT|[A-Z]{2,4}T)\b)?/g,
    as: PLACEHOLDER.time,
  },
];

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** A long hex run (16 or more): API keys, hashes, session ids. */
const HEX = /(?<![A-Za-z0-9])[0-9a-f]{16,}(?![A-Za-z0-9])/gi;
/** A base64 or base64url run of 20 or more with a letter and a digit: what a word never is. */
const BASE64 = /(?<![A-Za-z0-9+_-])[A-Za-z0-9+_-]{20,}={0,2}(?![A-Za-z0-9+_=-])/g;
const isToken = (run: string) => /[0-9]/.test(run) && /[A-Za-z]/.test(run);

/** The masks that need no snapshot: everything after the custom ones. */
export function maskDefaults(text: string, codes: readonly string[]): string {
  let out = text.replace(URL_IN_TEXT, maskQueryValues);
  // longest code first: a code that holds a shorter one is masked whole
  for (const code of [...codes].sort((a, b) => b.length - a.length)) {
    if (code.trim() !== "") out = out.replace(codePattern(code), PLACEHOLDER.code);
  }
  for (const { re, as } of DATE_TIME) out = out.replace(re, as);
  out = out.replace(UUID, PLACEHOLDER.uuid);
  out = out.replace(HEX, PLACEHOLDER.token);
  out = out.replace(BASE64, (run) => (isToken(run) ? PLACEHOLDER.token : run));
  return out;
}

/** Applies the custom masks (RE2: linear in the text, whatever the pattern) in their order. */
export function maskCustom(text: string, custom: readonly CustomMask[]): string {
  let out = text;
  for (const m of custom) out = m.re.matcher(out).replaceAll(m.replace);
  return out;
}

/** One masker for a mail's texts: custom masks, then the defaults. */
export function masker(input: MaskInput): Masker {
  return (text) => maskDefaults(maskCustom(text, input.custom), input.codes);
}

/** Elements whose text is code, not words: masking it could only break the style or script. */
const CODE_ELEMENTS = new Set(["style", "script"]);

/**
 * The HTML with every text node and every attribute value masked, parsed by htmlparser2 (never
 * by a regular expression), so that a masked value changes neither the structure nor the picture.
 * The serialization keeps the document as parsed (entities decoded and re-encoded).
 */
export function maskHtml(html: string, mask: Masker): string {
  const doc = parseDocument(html, { decodeEntities: true });
  const walk = (nodes: ChildNode[], inCode: boolean) => {
    for (const node of nodes) {
      if (isText(node)) {
        if (!inCode) node.data = mask(node.data);
      } else if (isTag(node)) {
        for (const [name, value] of Object.entries(node.attribs)) node.attribs[name] = mask(value);
        walk(node.children, inCode || CODE_ELEMENTS.has(node.name.toLowerCase()));
      }
    }
  };
  walk(doc.children, false);
  return render(doc, { decodeEntities: true, encodeEntities: "utf8" });
}
