import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Tenancy: an org was deleted. */
export const OrgsEventType = {
  orgDeleted: "org.deleted",
} as const;

/** Tenancy: an org and everything in it is gone; every service deletes that org's data. */
export const OrgDeletedData = z.object({ org_id: z.string().uuid(), team_ids: z.array(z.string().uuid()) });

export const OrgDeletedEvent = envelope(OrgsEventType.orgDeleted, OrgDeletedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const orgsEvents = [OrgDeletedEvent] as const;
