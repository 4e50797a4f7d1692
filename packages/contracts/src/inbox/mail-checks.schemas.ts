import { z } from "../zod";

/** Extensions section 7: the limits of the link check. */
export const LINK_CHECK_LIMITS = {
  /** Links checked per call, the first of `extracted.links`. */
  links: 100,
  /** The longest one link may take (HEAD, then GET when HEAD answers 405 or 501). */
  perLinkMs: 5_000,
  /** Links checked at the same time. */
  concurrency: 20,
} as const;

export const HtmlCheckIssue = z
  .object({
    feature: z.string().openapi({ description: "The caniemail feature, e.g. `css-display-flex` or `html-svg`" }),
    clients_unsupported: z
      .array(z.string())
      .openapi({ description: "Clients without support, named `family.platform` (`outlook.windows`, `gmail.android`)" }),
    clients_partial: z
      .array(z.string())
      .openapi({ description: "Clients with partial support (each counts half of the feature's share in `score`)" }),
    line: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: "The line of the HTML part where the feature is first used, when known" }),
    scored: z.boolean().openapi({
      description:
        "False for the document's wrapper elements (`<html>`, `<head>`, `<body>`, the doctype), which clients strip while still " +
        "showing the content: listed, but not counted in `score`",
    }),
    notes: z.record(z.string(), z.string()).openapi({
      description:
        'caniemail\'s notes on this feature for the clients named here, by client (`{"gmail.android": "Partial. …"}`); empty when it has none',
    }),
  })
  .openapi("HtmlCheckIssue");
export type HtmlCheckIssue = z.infer<typeof HtmlCheckIssue>;

export const HtmlCheck = z
  .object({
    score: z
      .number()
      .min(0)
      .max(100)
      .openapi({
        description:
          "The mean, over `clients`, of each client's support of the scored features the HTML uses, as a percentage with one decimal: " +
          "a client counts 1 when it supports each fully, and each feature it lacks takes its share away (a partly supported one half of its share)",
      }),
    clients: z.array(z.string()).openapi({ description: "The clients checked, named `family.platform`" }),
    issues: z
      .array(HtmlCheckIssue)
      .openapi({ description: "One entry per feature that some checked client lacks or supports only in part" }),
  })
  .openapi("HtmlCheck", {
    description: "BurnBox extension (not in the spec): the HTML part's HTML and CSS features judged against the caniemail data.",
    "x-burnbox-extension": true,
  });
export type HtmlCheck = z.infer<typeof HtmlCheck>;

export const LINK_CHECK_ERRORS = ["refused", "timeout", "unreachable", "tls", "invalid"] as const;
export const LinkCheckError = z.enum(LINK_CHECK_ERRORS).openapi("LinkCheckError", {
  description:
    "Why a link got no HTTP answer: `refused` (an internal, loopback, private or metadata address, or `localhost`, under the webhook rules), " +
    "`timeout` (no answer within 5 s), `unreachable` (the name does not resolve or the connection failed), `tls` (the TLS handshake or " +
    "certificate failed), `invalid` (not an http or https URL, or one carrying credentials)",
});
export type LinkCheckError = z.infer<typeof LinkCheckError>;

export const LinkCheckResult = z
  .object({
    url: z.string(),
    status: z.number().int().nullable().openapi({ description: "The HTTP status; null when there was no answer (see `error`)" }),
    ok: z.boolean().openapi({ description: "True for a 2xx" }),
    redirect_to: z
      .string()
      .optional()
      .openapi({ description: "For a 3xx: its Location, resolved against the URL (the redirect is not followed)" }),
    error: LinkCheckError.optional(),
  })
  .openapi("LinkCheckResult");
export type LinkCheckResult = z.infer<typeof LinkCheckResult>;

export const LinkCheck = z.object({ links: z.array(LinkCheckResult).max(LINK_CHECK_LIMITS.links) }).openapi("LinkCheck", {
  description: "BurnBox extension (not in the spec): each link of `extracted.links`, in that order, fetched once.",
  "x-burnbox-extension": true,
});
export type LinkCheck = z.infer<typeof LinkCheck>;
