import { z } from "../zod";
import { BULK_MAX_IDS, PaginationQuery } from "../pagination";
import { OrgParams, Timestamp, Uuid, atLeastOneField } from "../shared/common.schemas";
import { TierSettings } from "./orgs.schemas";

/** The DNS record a domain publishes its DKIM public key in (RFC 6376 3.6.1). */
export const DkimRecord = z
  .object({
    selector: z.string(),
    /** `<selector>._domainkey.<domain>` */
    name: z.string(),
    type: z.literal("TXT"),
    /** `v=DKIM1; k=rsa; p=<the 2048-bit public key, base64>` */
    value: z.string(),
  })
  .openapi("DkimRecord");
export type DkimRecord = z.infer<typeof DkimRecord>;

export const DomainStatus = z.enum(["pending_verification", "partially_verified", "verified", "failed"]);
export const Domain = z
  .object({
    id: Uuid,
    org_id: Uuid,
    domain_name: z.string(),
    description: z.string().nullable(),
    status: DomainStatus,
    mx_verified: z.boolean(),
    txt_verified: z.boolean(),
    spf_verified: z.boolean(),
    /** Extensions 10: whether the last DNS check found `dkim_record` published (informational, like SPF). */
    dkim_verified: z.boolean(),
    verification_record: z.string(),
    /**
     * Extensions 10: the TXT record that publishes the domain's DKIM key (selector `burnbox`), which
     * signs the mail its inboxes send; null while the key is not made yet (a domain older than the
     * feature gets one shortly after the upgrade, or none without `encryption.key`).
     */
    dkim_record: DkimRecord.nullable(),
    /** The host name the domain's MX record must point at (`smtp.hostname`). */
    mx_target: z.string(),
    dns_last_checked_at: Timestamp.nullable(),
    settings: z.record(z.string(), z.unknown()),
    active_inboxes: z.number().int(),
    total_inboxes: z.number().int(),
    team_count: z.number().int(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Domain");
export type Domain = z.infer<typeof Domain>;

/** Names that never reach a mail server on the internet: special-use (RFC 6761, 6762) and the private-use `.internal`. */
const LOCAL_ONLY = /(^|\.)(localhost|local|internal)$/;

/**
 * A mail domain: an RFC 1123 host name of two labels or more, lower-cased. IP literals,
 * `localhost` and `.local`, `.internal`, `.localhost` names are refused (contract notes).
 */
export const DomainName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be a domain name such as mail.example.com")
  .refine((name) => !LOCAL_ONLY.test(name), "must be a public domain name, not localhost or a .local, .internal or .localhost name");

export const CreateDomainBody = z
  .object({ domain_name: DomainName, description: z.string().max(500).optional() })
  .openapi("CreateDomainRequest");
export type CreateDomainBody = z.infer<typeof CreateDomainBody>;

export const DomainParams = OrgParams.extend({ domainId: Uuid });
export const ListDomainsQuery = PaginationQuery.extend({ q: z.string().max(200).optional(), status: DomainStatus.optional() });
export type ListDomainsQuery = z.infer<typeof ListDomainsQuery>;
export const UpdateDomainBody = atLeastOneField(
  z.object({ description: z.string().max(500).nullable().optional(), settings: TierSettings.optional() }),
).openapi("UpdateDomainRequest");
export type UpdateDomainBody = z.infer<typeof UpdateDomainBody>;
/** `force=true` deletes even while inboxes on it are active. */
export const ForceQuery = z.object({
  force: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true")
    .openapi({ type: "boolean" }),
});
export type ForceQuery = z.infer<typeof ForceQuery>;
/** The 409 of a delete refused while inboxes are active. */
export const ActiveInboxesConflict = z
  .object({ error: z.string(), code: z.literal("conflict"), active_inboxes: z.number().int() })
  .openapi("ActiveInboxesConflict");

export const VerificationTrigger = z.enum(["create", "manual", "worker"]);
/** One DNS check; a result is null when the DNS lookup failed (then `error` says why). */
export const DomainVerification = z
  .object({
    id: Uuid,
    checked_at: Timestamp,
    trigger: VerificationTrigger,
    mx_result: z.boolean().nullable(),
    txt_result: z.boolean().nullable(),
    spf_result: z.boolean().nullable(),
    /** Extensions 10: whether the DKIM record was found published; null when the lookup failed or the domain has no key yet. */
    dkim_result: z.boolean().nullable(),
    error: z.string().nullable(),
  })
  .openapi("DomainVerification");
export type DomainVerification = z.infer<typeof DomainVerification>;

export const BulkVerifyDomainsBody = z.object({ domain_ids: z.array(Uuid).min(1).max(BULK_MAX_IDS) }).openapi("BulkVerifyDomainsRequest");
export type BulkVerifyDomainsBody = z.infer<typeof BulkVerifyDomainsBody>;
export const BulkVerifyDomainsResult = z
  .object({ results: z.array(Domain), failed: z.array(z.object({ domain_id: Uuid, reason: z.string() })) })
  .openapi("BulkVerifyDomainsResult");
export type BulkVerifyDomainsResult = z.infer<typeof BulkVerifyDomainsResult>;
export const BulkDeleteDomainsBody = z
  .object({ domain_ids: z.array(Uuid).min(1).max(BULK_MAX_IDS), force: z.boolean().optional() })
  .openapi("BulkDeleteDomainsRequest");
export type BulkDeleteDomainsBody = z.infer<typeof BulkDeleteDomainsBody>;
export const BulkDeleteDomainsResult = z
  .object({ deleted: z.number().int(), skipped: z.array(z.object({ domain_id: Uuid, reason: z.string() })) })
  .openapi("BulkDeleteDomainsResult");
export type BulkDeleteDomainsResult = z.infer<typeof BulkDeleteDomainsResult>;
