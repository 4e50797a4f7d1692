/**
 * Analytics: how fast tenancy's consumers count `email.received` events (published straight to
 * JetStream for one team), and how long the analytics reads take through the gateway once the
 * org holds a year of figures (20 teams x 365 days x 24 hours of series rows, 5 receiving domains,
 * 1,000 sender domains). Run: pnpm --filter @burnbox/bench analytics
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { nothingExtracted } from "@burnbox/contracts";
import { prepareDatabase } from "@burnbox/service-kit/data";
import { connectNats, jetstream, newEvent, publishEvent } from "@burnbox/service-kit/messaging";
import { testDatabaseUrl } from "@burnbox/test-kit";
import { apiClient, System, teamWithDomain } from "@burnbox/tests-e2e";
import { machine, summary } from "./stats";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const READS = Number(process.env.BENCH_READS ?? 200);

async function main(): Promise<void> {
  const system = await System.start({ all: { BB_LOG_LEVEL: "warn" }, "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" } });
  const nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222", "bench");
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const js = jetstream(nc);
    const totalEmails = async () =>
      (await api<{ total_emails: number }>("GET", `/orgs/${world.orgId}/analytics`, { token: world.owner.token })).body.total_emails;
    const publish = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await publishEvent(
          js,
          system.namespace,
          newEvent("email.received", {
            org_id: world.orgId,
            team_id: world.teamId,
            data: {
              email_id: randomUUID(),
              inbox_id: randomUUID(),
              team_id: world.teamId,
              from: `s@sender-${i % 50}.example`,
              to: `x@${world.domainName}`,
              subject: "bench",
              received_at: new Date().toISOString(),
              size_bytes: 2048,
              extracted: nothingExtracted(),
            },
          }),
        );
      }
    };
    const counted = async (n: number) => {
      while ((await totalEmails()) < n) await new Promise((r) => setTimeout(r, 50));
    };
    await publish(100); // warm-up
    await counted(100);
    const t0 = Date.now();
    await publish(EVENTS);
    await counted(100 + EVENTS);
    const seconds = (Date.now() - t0) / 1000;

    // a year of figures for the org, written as the consumers would have
    const pool = await prepareDatabase(
      testDatabaseUrl(system.databaseName("tenancy")),
      path.join(__dirname, "..", "..", "services", "tenancy", "prisma", "migrations"),
    );
    const seeded = Date.now();
    await pool.query(
      `INSERT INTO analytics_hourly (org_id, team_id, day, hour, emails, email_bytes, inboxes_created)
       SELECT $1::uuid, t.id, d::date, h, 3, 6000, 1
       FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, 20)) t,
            generate_series(current_date - 364, current_date - 1, interval '1 day') d, generate_series(0, 23) h`,
      [world.orgId],
    );
    await pool.query(
      `INSERT INTO analytics_domain_daily (org_id, domain, day, emails)
       SELECT $1::uuid, 'd' || n || '.bench.test', d::date, 10
       FROM generate_series(1, 5) n, generate_series(current_date - 364, current_date - 1, interval '1 day') d`,
      [world.orgId],
    );
    await pool.query(
      `INSERT INTO analytics_sender_domains (org_id, sender_domain, emails)
       SELECT $1::uuid, 'sender-bench-' || n || '.test', n FROM generate_series(1, 1000) n`,
      [world.orgId],
    );
    await pool.query("ANALYZE analytics_hourly; ANALYZE analytics_domain_daily; ANALYZE analytics_sender_domains");
    const seedMs = Date.now() - seeded;
    await pool.end();

    const org = `/orgs/${world.orgId}`;
    const paths = {
      summary: `${org}/analytics`,
      "emails-per-day?days=365": `${org}/analytics/emails-per-day?days=365`,
      "insights?days=365": `${org}/analytics/insights?days=365`,
      "domain-series?days=365": `${org}/analytics/domain-series?days=365&domain=${world.domainName}`,
      "team insights?days=365": `${org}/teams/${world.teamId}/analytics/insights?days=365`,
    };
    const lines: string[] = [];
    for (const [label, p] of Object.entries(paths)) {
      for (let i = 0; i < 20; i++) await api("GET", p, { token: world.owner.token }); // warm-up
      const samples: number[] = [];
      for (let i = 0; i < READS; i++) {
        const start = performance.now();
        const res = await api("GET", p, { token: world.owner.token });
        samples.push(performance.now() - start);
        if (res.status !== 200) throw new Error(`${label}: ${res.status}`);
      }
      lines.push(summary(label, samples));
    }
    process.stdout.write(
      [
        `machine: ${machine()}`,
        `consumers: ${EVENTS} email.received events counted in ${seconds.toFixed(2)} s = ${(EVENTS / seconds).toFixed(0)} events/s`,
        `seeded 175,200 series rows, 1,825 domain rows, 1,000 sender domains in ${seedMs} ms`,
        ...lines.map((l) => `GET ${l}`),
      ].join("\n") + "\n",
    );
  } finally {
    await nc.close();
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
