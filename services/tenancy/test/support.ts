import { randomUUID } from "node:crypto";
import path from "node:path";
import { subjects, type Actor, type DomainEvent, type EventOf } from "@burnbox/contracts";
import { jetstreamManager } from "@burnbox/service-kit/messaging";
import { startTestService, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadTenancyConfig, type TenancyConfig } from "../src/config";

/** Domains under this one are verified at once (no DNS in tests). */
export const TRUSTED = "trusted.burnbox.test";

export type Tenancy = TestService<TenancyConfig, RunningService>;

/** Tenancy in-process on the real Postgres and NATS, in a namespace and database of its own. */
export function startTenancy(extra: Record<string, unknown> = {}): Promise<Tenancy> {
  return startTestService({
    prefix: "ten",
    load: (o) => loadTenancyConfig({}, o),
    start: startService,
    migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
    overrides: () => ({ domains: { trusted: [TRUSTED] }, ...extra }),
  });
}

export const trustedDomainName = (): string => `${randomUUID().slice(0, 8)}.${TRUSTED}`;

/** A fresh org with one team and one verified domain, created through the API by `actor`. */
export async function orgTeamDomain(t: Tenancy, actor: Actor) {
  const org = await t.call<{ id: string }>("POST", "/orgs", { actor, body: { name: "Acme QA" } });
  const team = await t.call<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, { actor, body: { name: "Checkout" } });
  const domain = await t.call<{ id: string; domain_name: string; status: string }>("POST", `/orgs/${org.body.id}/domains`, {
    actor,
    body: { domain_name: trustedDomainName() },
  });
  return { orgId: org.body.id, teamId: team.body.id, domain: domain.body };
}

type AuditRecorded = EventOf<"audit.recorded">;

/** The audit entries written for an org (in the outbox, in order), and whether each was published. */
export async function auditsOf(t: Tenancy, orgId: string): Promise<Array<{ event: AuditRecorded; published: boolean }>> {
  const { rows } = await t.infra.pool!.query<{ payload: AuditRecorded; published: boolean }>(
    `SELECT payload, published_at IS NOT NULL AS published FROM outbox_events
     WHERE payload->>'type' = 'audit.recorded' AND payload->>'org_id' = $1 ORDER BY created_at, payload->'data'->>'action'`,
    [orgId],
  );
  return rows.map((r) => ({ event: r.payload, published: r.published }));
}

/**
 * Publishes `event` as a new message, even when the stream has seen its id (as a relay
 * republishing after the dedup window would); resolves with its stream sequence.
 */
export async function deliver(t: Tenancy, event: DomainEvent): Promise<number> {
  const ack = await t.infra.js.publish(subjects(t.ns).event(event.type), JSON.stringify(event), { msgID: randomUUID() });
  return ack.seq;
}

/** Resolves once the durable consumer has finished (acked) every message up to stream sequence `seq`. */
export async function handledThrough(t: Tenancy, durable: string, seq: number): Promise<void> {
  const jsm = await jetstreamManager(t.infra.nc);
  await waitFor(async () => (await jsm.consumers.info(subjects(t.ns).stream, durable)).ack_floor.stream_seq >= seq, {
    what: `${durable} to finish message ${seq}`,
  });
}
