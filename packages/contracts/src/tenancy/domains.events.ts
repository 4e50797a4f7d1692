import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Tenancy: a domain was verified or moved to another org. */
export const DomainsEventType = {
  domainVerified: "domain.verified",
  domainTransferred: "domain.transferred",
} as const;

/** Tenancy: a domain's DNS checks passed (MX and TXT). */
export const DomainVerifiedData = z.object({ domain_id: z.string().uuid(), domain_name: z.string() });
/** Tenancy: a domain moved to another org (system admins); its assignments were removed. */
export const DomainTransferredData = z.object({
  domain_id: z.string().uuid(),
  domain_name: z.string(),
  from_org_id: z.string().uuid(),
  to_org_id: z.string().uuid(),
  removed_team_ids: z.array(z.string().uuid()),
});

export const DomainVerifiedEvent = envelope(DomainsEventType.domainVerified, DomainVerifiedData);
export const DomainTransferredEvent = envelope(DomainsEventType.domainTransferred, DomainTransferredData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const domainsEvents = [DomainVerifiedEvent, DomainTransferredEvent] as const;
