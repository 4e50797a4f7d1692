import type { Actor, MessageBody, z } from "@burnbox/contracts";
import type { Redis, UnitOfWork } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger, Clock } from "@burnbox/service-kit/runtime";
import type { OutboundPolicy, SecretBox } from "@burnbox/service-kit/security";
import type { IdentityConfig } from "../config";
import type { IdentityHot, IdentityRepos } from "../data/repositories";
import type { Mailer } from "../adapters/mailer";
import type { PasswordHasher } from "./passwords";
import type { RelyingParty } from "../adapters/relying-party";

export interface IdentityDeps {
  /** Repositories for reads; `write(...)` for a change with its events and audit entries. */
  data: UnitOfWork<IdentityRepos, IdentityHot>;
  nc: NatsConnection;
  redis: Redis | null;
  config: IdentityConfig;
  hasher: PasswordHasher;
  mailer: Mailer;
  /** AES-256-GCM with `encryption.key`, for the secrets identity must read back. */
  secrets: SecretBox;
  /** The OpenID Connect / OAuth2 client side of SSO. */
  rp: RelyingParty;
  /** How outbound connections to admin-supplied targets resolve and what is exempt (`dns.servers`, `infra.unsafe_allowed_targets`). */
  outbound: OutboundPolicy;
  logger: Logger;
  /** The clock; tests move it instead of sleeping. */
  now: Clock;
}

/** The context of a public route: the caller may be anonymous. */
export type PublicCtx = RequestCtx<Actor | null>;

/** The `{ message }` answer of several routes (the contracts export only its schema). */
export type Message = z.infer<typeof MessageBody>;
