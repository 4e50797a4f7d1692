import { z } from "../zod";

/** Extensions section 2: what a mail's links are for, judged from the URL's path and query, then the anchor text. */
export const LINK_KINDS = ["verify", "reset", "magic_link", "unsubscribe", "other"] as const;
export const LinkKind = z.enum(LINK_KINDS).openapi("LinkKind");
export type LinkKind = z.infer<typeof LinkKind>;

export const EXTRACTED_LIMITS = { codes: 5, links: 100, codeContext: 60 } as const;

export const ExtractedCode = z
  .object({
    value: z
      .string()
      .openapi({ description: "The code as typed: digits, or capital letters and digits; a split `123 456` gives `123456`" }),
    context: z
      .string()
      .max(EXTRACTED_LIMITS.codeContext)
      .openapi({ description: "Up to 60 characters of the text around the code, the code included" }),
  })
  .openapi("ExtractedCode");
export type ExtractedCode = z.infer<typeof ExtractedCode>;

export const ExtractedLink = z
  .object({
    url: z.string().openapi({ description: "An http or https URL as the mail wrote it" }),
    text: z.string().openapi({ description: "The anchor's visible text; empty for a URL from the text part or a List-Unsubscribe header" }),
    kind: LinkKind,
  })
  .openapi("ExtractedLink");
export type ExtractedLink = z.infer<typeof ExtractedLink>;

/** Computed once when the mail is received; a mail with no code or link has empty lists, never null. */
export const Extracted = z
  .object({
    codes: z.array(ExtractedCode).max(EXTRACTED_LIMITS.codes),
    links: z.array(ExtractedLink).max(EXTRACTED_LIMITS.links),
  })
  .openapi("Extracted", {
    description:
      "BurnBox extension (not in the spec): the one-time codes and links found in the mail, computed once when it was received " +
      "(every rule, with examples: docs/extraction.md). A mail with no code or link has empty lists, never null.\n\n" +
      "`codes` (at most 5): a run of 4 to 10 digits (one space or dash may split it in two groups: `123 456` gives `123456`), " +
      "or of 5 to 10 capital letters and digits with at least one digit, within 40 characters of a keyword (code, OTP, PIN, " +
      "passcode, one-time, verification, verify, security code, login code, token; whole words, any case) in the subject " +
      "or the body text, or the only such run in the subject. Digit-only codes next to a keyword first, then other codes " +
      "next to a keyword, then a subject's only run; subject before body. Never a code: part of a URL or an email address, " +
      "a year beside a month name, an amount with a currency sign, more than 10 digits.\n\n" +
      "`links` (at most 100): each distinct http(s) URL, the HTML part's hrefs in document order, then the text part's, " +
      "then a List-Unsubscribe URL; `kind` is verify, reset, magic_link, unsubscribe or other, judged from the URL's path " +
      "and query, then the anchor text.",
    "x-burnbox-extension": true,
  });
export type Extracted = z.infer<typeof Extracted>;

/** What a mail stored before extraction existed carries. */
export const nothingExtracted = (): Extracted => ({ codes: [], links: [] });
