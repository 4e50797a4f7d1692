import { ProcessedEventRepository } from "@burnbox/service-kit/data";
import type { ChangeLog } from "@burnbox/service-kit/messaging";
import { RemovedTenantRepository } from "@burnbox/tenant-removal";
import { ApiKeyRepository } from "./api-key.repository";
import { PlatformRepository } from "./platform.repository";
import type { Client } from "./prisma";
import { SessionRepository } from "./session.repository";
import { SetupRepository } from "./setup.repository";
import { SsoGrantRepository } from "./sso-grant.repository";
import { SsoIdentityRepository } from "./sso-identity.repository";
import { SsoProviderRepository } from "./sso-provider.repository";
import { UserTokenRepository } from "./user-token.repository";
import { UserRepository } from "./user.repository";

/** The transaction-bound set (`data.repos`, and what `write()` hands its change): bound to the client or to one transaction. */
export const repositories = (db: Client, changes?: ChangeLog) => ({
  users: new UserRepository(db, changes),
  sessions: new SessionRepository(db),
  userTokens: new UserTokenRepository(db),
  platform: new PlatformRepository(db),
  apiKeys: new ApiKeyRepository(db, changes),
  ssoProviders: new SsoProviderRepository(db),
  ssoIdentities: new SsoIdentityRepository(db),
  ssoGrants: new SsoGrantRepository(db),
  setup: new SetupRepository(db),
  tenants: new RemovedTenantRepository(db),
  processedEvents: new ProcessedEventRepository(db),
});
export type IdentityRepos = ReturnType<typeof repositories>;

/**
 * The pool-only hot-path set (`data.hot`): one per process, never in a transaction. Empty: no
 * statement of identity runs once per message or proxied read (the gateways read the API keys
 * from Redis). A hot statement added later is a `HotRepository` here (`docs/service-layout.md`).
 */
export const hotRepositories = () => ({});
export type IdentityHot = ReturnType<typeof hotRepositories>;

/** The data layer's one entry point for the service's wiring: the client the repositories run on. */
export { createPrisma } from "./prisma";
