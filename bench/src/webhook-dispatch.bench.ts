/**
 * The webhook-dispatcher alone: N `email.received` events published straight to JetStream for a
 * team with one webhook pointing at a local receiver; reports signed deliveries per second and
 * the time from publish to receipt. Run: pnpm --filter @burnbox/bench webhook-dispatch
 */
import { randomUUID } from "node:crypto";
import { nothingExtracted } from "@burnbox/contracts";
import { connectNats, jetstream, newEvent, publishEvent } from "@burnbox/service-kit/messaging";
import { apiClient, System, teamWithDomain, WebhookReceiver } from "@burnbox/tests-e2e";
import { machine, summary } from "./stats";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);

async function main(): Promise<void> {
  const system = await System.start({ all: { BB_LOG_LEVEL: "warn" } });
  const receiver = await WebhookReceiver.start();
  const nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222", "bench");
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const hook = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
      token: world.owner.token,
      body: { url: receiver.url, events: ["email.received"] },
    });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status}`);
    const js = jetstream(nc);
    const sentAt = new Map<string, number>();
    const publish = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const subject = `s-${randomUUID()}`;
        sentAt.set(subject, Date.now());
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
              from: "a@example.org",
              to: "b@x.test",
              subject,
              received_at: new Date().toISOString(),
              extracted: nothingExtracted(),
            },
          }),
        );
      }
    };
    const waitFor = async (count: number) => {
      while (receiver.received.length < count) await new Promise((r) => setTimeout(r, 20));
    };
    await publish(50); // warm-up
    await waitFor(50);
    const base = receiver.received.length;
    const t0 = Date.now();
    await publish(EVENTS);
    await waitFor(base + EVENTS);
    const seconds = (Date.now() - t0) / 1000;
    const latencies = receiver.received.slice(base).map((r) => {
      const body = JSON.parse(r.raw.toString("utf8")) as { data: { subject: string } };
      return r.at - (sentAt.get(body.data.subject) ?? r.at);
    });
    process.stdout.write(`machine: ${machine()}\n`);
    process.stdout.write(
      `${EVENTS} events published as fast as JetStream acks them, all delivered in ${seconds.toFixed(1)} s: ${(EVENTS / seconds).toFixed(0)} deliveries/s\n`,
    );
    process.stdout.write(`${summary("publish -> webhook received", latencies)}\n`);
  } finally {
    await nc.drain();
    await receiver.close();
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
