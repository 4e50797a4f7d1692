import type { UnitOfWork } from "@burnbox/service-kit/data";
import type { NatsConnection } from "@burnbox/service-kit/messaging";
import type { Clock } from "@burnbox/service-kit/runtime";
import type { SecretBox } from "@burnbox/service-kit/security";
import type { TenancyConfig } from "../config";
import type { TenancyHot, TenancyRepos } from "../data/repositories";
import type { DnsLookup } from "./domains/dns-check";
import type { PlatformTtlView } from "./platform-config/platform-ttl";

/** What every tenancy use case receives: explicit dependencies, no globals. */
export interface TenancyDeps {
  /** Repositories for reads; `write` for a change with its events and audit entries. */
  data: UnitOfWork<TenancyRepos, TenancyHot>;
  config: TenancyConfig;
  /** Requests to other services (identity: members' details, password confirmation). */
  nc: NatsConnection;
  /** The clock (ms since the epoch); tests move it instead of sleeping. */
  now: Clock;
  /** The DNS as domain verification reads it (`dns.servers`). */
  dnsLookup: DnsLookup;
  /** AES-256-GCM with `encryption.key`: the platform mailer password and storage secret key. */
  secrets: SecretBox;
  /** The platform's inbox TTLs (PUT /admin/platform), the top tier of the cascade; current on every replica. */
  platformTtl: PlatformTtlView;
}
