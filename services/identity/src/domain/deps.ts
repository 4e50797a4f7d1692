import type { Redis } from "@burnbox/service-kit";
import type { Logger, NatsConnection, OutboxRelay } from "@burnbox/service-kit";
import type { IdentityConfig } from "../config";
import type { Db } from "../data/prisma";
import type { Mailer } from "../mail/mailer";
import type { PasswordHasher } from "./passwords";

export interface IdentityDeps {
  db: Db;
  nc: NatsConnection;
  redis: Redis | null;
  relay: OutboxRelay;
  config: IdentityConfig;
  hasher: PasswordHasher;
  mailer: Mailer;
  logger: Logger;
  /** The clock; tests move it instead of sleeping. */
  now: () => number;
}

/** Where a request came from, recorded on the session it opens. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}
