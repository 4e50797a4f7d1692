import { z } from "../zod";

/** Extensions section 3: a verdict in the words of RFC 8601 (Authentication-Results). */
export const MAIL_AUTH_RESULTS = ["pass", "fail", "softfail", "neutral", "none", "temperror", "permerror", "policy"] as const;
export const MailAuthResult = z.enum(MAIL_AUTH_RESULTS).openapi("MailAuthResult", {
  description:
    "An RFC 8601 result. `temperror`: a DNS lookup failed or did not answer within the intake's DNS budget (the mail was stored all the same); " +
    "`permerror`: the published record is broken; `none`: nothing to check (no record, no signature).",
});
export type MailAuthResult = z.infer<typeof MailAuthResult>;

/** What a domain's DMARC record asks receivers to do with mail that fails (`p=`, or `sp=` for a subdomain). */
export const DMARC_POLICIES = ["none", "quarantine", "reject"] as const;
export const DmarcPolicy = z.enum(DMARC_POLICIES).openapi("DmarcPolicy");
export type DmarcPolicy = z.infer<typeof DmarcPolicy>;

export const SpfVerdict = z
  .object({
    result: MailAuthResult,
    domain: z.string().nullable().openapi({
      description:
        "The domain whose SPF record was checked: the envelope sender's (MAIL FROM), or the HELO name for a null sender; null when neither has one",
    }),
  })
  .openapi("SpfVerdict");

export const DkimVerdict = z
  .object({
    result: MailAuthResult.openapi({
      description:
        "`pass`, or `fail` when the key does not verify the signature; a body altered after signing (body hash mismatch) is `neutral`",
    }),
    domain: z.string().openapi({ description: "The signing domain (`d=`)" }),
    selector: z.string().openapi({ description: "The key's selector (`s=`)" }),
  })
  .openapi("DkimVerdict");

export const DmarcVerdict = z
  .object({
    result: MailAuthResult,
    policy: DmarcPolicy.openapi({
      description:
        "The policy the From domain publishes (`p=`, or `sp=` for a subdomain); `none` when it publishes none. Never applied: mail is stored whatever it says",
    }),
    domain: z.string().nullable().openapi({ description: "The From header's domain; null when the message has no usable From address" }),
  })
  .openapi("DmarcVerdict");

export const ArcVerdict = z.object({ result: MailAuthResult }).openapi("ArcVerdict");

/** Extensions section 3: SPF, DKIM, DMARC and ARC as judged once at intake. */
export const Authentication = z
  .object({
    spf: SpfVerdict,
    dkim: z.array(DkimVerdict).openapi({ description: "One entry per DKIM signature, in header order; `[]` for an unsigned message" }),
    dmarc: DmarcVerdict,
    arc: ArcVerdict,
  })
  .openapi("Authentication", {
    description:
      "BurnBox extension (not in the spec): SPF, DKIM, DMARC and ARC verdicts worked out once at intake from the connecting client's IP address, " +
      "its HELO name and the envelope sender, with the DNS servers of `dns.servers` (within 2 s of the end of DATA; a lookup that fails or runs " +
      "out of time gives `temperror`). The verdicts never refuse mail, and the raw message stays as received (no header is added). " +
      "Null for mail received before BurnBox checked authentication, or by an intake that has it turned off.",
    "x-burnbox-extension": true,
  });
export type Authentication = z.infer<typeof Authentication>;

export const AUTHENTICATION_SUMMARIES = ["pass", "fail", "none"] as const;
export const AuthenticationSummary = z.enum(AUTHENTICATION_SUMMARIES).openapi("AuthenticationSummary", {
  description:
    "BurnBox extension: `pass` when DMARC passes, `fail` when it fails, else `none` (no DMARC record, a DNS error, or mail received before authentication was checked).",
  "x-burnbox-extension": true,
});
export type AuthenticationSummary = z.infer<typeof AuthenticationSummary>;

/** The summary of an email's authentication: DMARC's verdict when it is `pass` or `fail`, else `none`. */
export function authenticationSummaryOf(authentication: Authentication | null): AuthenticationSummary {
  const result = authentication?.dmarc.result;
  return result === "pass" || result === "fail" ? result : "none";
}
