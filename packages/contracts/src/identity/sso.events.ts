import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Identity: a first SSO login created a user. */
export const SsoEventType = {
  userSsoProvisioned: "user.sso_provisioned",
} as const;

/**
 * Identity: a user created by a first SSO login, with the org and team memberships its domain
 * mapping (or the provider's defaults) gives; written in the user's own transaction, so tenancy
 * creates the memberships even when it was down at sign-in.
 */
export const UserSsoProvisionedData = z.object({
  user_id: z.string().uuid(),
  provider: z.string().max(100),
  memberships: z
    .array(
      z.object({
        org_id: z.string().uuid(),
        org_role: z.string(),
        team_id: z.string().uuid().nullable(),
        team_role: z.string().nullable(),
      }),
    )
    .max(100),
});

export const UserSsoProvisionedEvent = envelope(SsoEventType.userSsoProvisioned, UserSsoProvisionedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const ssoEvents = [UserSsoProvisionedEvent] as const;
