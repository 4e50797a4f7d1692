import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail, WebhookReceiver } from "./clients";
import { SharedSystem } from "./shared-system";
import { alias, createHook, logOf, Receiver, stats, type Hit } from "./webhook-kit";
import { createInbox, teamWithDomain } from "./world";

const subjectsOf = (r: WebhookReceiver) =>
  r.received.map((h) => (JSON.parse(h.raw.toString("utf8")) as { data: { subject: string } }).data.subject);

/**
 * The tests that stop a process of the shared system, all in this one file: the dispatcher is
 * started again after each, whatever the test's outcome.
 */
describe("the webhook-dispatcher stopped and started again", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  afterEach(async () => {
    await system.startProcess("webhook-dispatcher"); // a no-op when it is running
  });

  it("when the webhook-dispatcher is down while mail arrives, then every email.received is delivered after it restarts", async () => {
    const world = await teamWithDomain(api);
    const hookReceiver = await WebhookReceiver.start();
    try {
      const hook = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
        token: world.owner.token,
        body: { url: hookReceiver.url, events: ["email.received"] },
      });
      expect(hook.status).toBe(201);
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, "durable");
      await system.stopProcess("webhook-dispatcher");
      const subjects: string[] = [];
      for (let i = 0; i < 5; i++) {
        const subject = `durable-${i}`;
        subjects.push(subject);
        const r = await sendMail(system.ports.smtp, { from: "a@example.org", to: inbox.full_address, subject, text: "x" });
        expect(r.data?.code).toBe(250);
      }
      expect(hookReceiver.received).toHaveLength(0);
      await system.startProcess("webhook-dispatcher");
      await waitFor(() => hookReceiver.received.length >= 5, { timeoutMs: 30_000, what: "all deliveries" });
      // none twice: a mail sent now is delivered, and it is the only delivery after the five
      const sentinel = await sendMail(system.ports.smtp, { from: "a@example.org", to: inbox.full_address, subject: "sentinel", text: "x" });
      expect(sentinel.data?.code).toBe(250);
      await waitFor(() => subjectsOf(hookReceiver).includes("sentinel"), { what: "the sentinel's delivery" });
      expect(subjectsOf(hookReceiver).sort()).toEqual([...subjects, "sentinel"].sort());
    } finally {
      await hookReceiver.close();
    }
  });

  it("when the dispatcher is killed between attempts, then after a restart it keeps the schedule and delivers with the same delivery id", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      rx.answer = (n) => (n === 1 ? 500 : 200);
      const hook = await createHook(api, world, rx.url, ["inbox.created"]);
      await createInbox(api, world.owner.token, world.assignmentId, alias("crash"));
      await logOf(api, world, hook.id, 1); // attempt 1 and its schedule are committed
      const first = rx.hits[0] as Hit;

      await system.stopProcess("webhook-dispatcher", "SIGKILL");
      const killedAt = Date.now();
      expect(killedAt - first.at).toBeLessThan(4_000); // killed before attempt 2 was due
      expect(rx.hits).toHaveLength(1);
      await system.startProcess("webhook-dispatcher");
      const restartedAt = Date.now();

      await waitFor(() => rx.hits.length >= 2, { what: "attempt 2 after the restart", timeoutMs: 30_000, intervalMs: 100 });
      const second = rx.hits[1] as Hit;
      // never early, and on time (or at once, if the restart took longer than the delay)
      expect(second.at - first.at).toBeGreaterThanOrEqual(5_000 - 100);
      expect(second.at - first.at).toBeLessThanOrEqual(Math.max(5_000, restartedAt - first.at) + 1_500);
      expect(second.headers["x-service-delivery-id"]).toBe(first.headers["x-service-delivery-id"]);

      const log = await logOf(api, world, hook.id, 2);
      expect(log.data.map((e) => [e.attempt, e.success, e.response_status, e.delivery_id])).toEqual([
        [2, true, 200, first.headers["x-service-delivery-id"]],
        [1, false, 500, first.headers["x-service-delivery-id"]],
      ]);
      expect(await stats(api, world, hook.id)).toMatchObject({ total_deliveries: 2, success_count: 1, failure_count: 1, success_rate: 50 });
      // no third attempt of the delivered event: the next event's delivery arrives, and that one alone
      const next = await createInbox(api, world.owner.token, world.assignmentId, alias("after-crash"));
      const sentinel = await waitFor(() => rx.deliveries(hook.secret).find((d) => d.body.data.inbox_id === next.id), {
        what: "the next event's delivery",
      });
      expect(rx.hits.map((h) => h.headers["x-service-delivery-id"])).toEqual([
        first.headers["x-service-delivery-id"],
        first.headers["x-service-delivery-id"],
        sentinel.deliveryId,
      ]);
    } finally {
      await rx.close();
    }
  }, 90_000);
});
