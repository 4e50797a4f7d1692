import type { UnitOfWork } from "@burnbox/service-kit/data";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Clock } from "@burnbox/service-kit/runtime";
import type { Allowlist, SecretBox } from "@burnbox/service-kit/security";
import type { DispatcherConfig } from "../config";
import type { DispatcherHot, DispatcherRepos } from "../data/repositories";
import type { Resolver } from "../adapters/webhook-sender";

export interface DispatcherDeps {
  /**
   * `repos` for reads, `write(change)` for a change with its audit entries; `hot.deliveries`: the
   * delivery queue on the pool (system work across tenants, never in a transaction).
   */
  data: UnitOfWork<DispatcherRepos, DispatcherHot>;
  nc: NatsConnection;
  config: DispatcherConfig;
  allowed: Allowlist;
  resolver: Resolver;
  /** AES-256-GCM with `encryption.key`: the webhooks' signing secrets at rest. */
  secrets: SecretBox;
  /** The clock (ms since the epoch); tests move it instead of sleeping. */
  now: Clock;
}
