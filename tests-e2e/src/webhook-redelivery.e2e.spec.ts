import { randomBytes, randomUUID } from "node:crypto";
import { createReplayGuard, verifyWebhook, WebhookVerificationError } from "@burnbox/sdk";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { alias, createHook, hooksPath, logOf, Receiver, type Hook, type World } from "./webhook-kit";
import { createInbox, teamWithDomain, type Api } from "./world";

/**
 * Redelivery (extensions 6) on the shared system (real 5 s retry base): a delivered
 * email.received is sent again, byte for byte, under the same X-Service-Delivery-ID.
 */
describe("webhook redelivery through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  const redeliverPath = (w: World, hookId: string, deliveryId: string) => `${hooksPath(w)}/${hookId}/deliveries/${deliveryId}/redeliver`;
  const redeliver = (token: string, w: World, hookId: string, deliveryId: string) =>
    api<{ delivery_id?: string; error?: string; code?: string }>("POST", redeliverPath(w, hookId, deliveryId), { token });

  async function apiKey(w: World, scopes: string[]): Promise<string> {
    const res = await api<{ raw_key: string }>("POST", `/orgs/${w.orgId}/teams/${w.teamId}/api-keys`, {
      token: w.owner.token,
      body: { name: `redeliver-${randomBytes(2).toString("hex")}`, scopes },
    });
    if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.raw_key;
  }

  /** A team with a receiver subscribed to email.received, and one real mail delivered to it. */
  async function deliveredMail(client: Api, answer?: (n: number) => number | "hang") {
    const world = await teamWithDomain(client);
    const rx = await Receiver.start();
    if (answer) rx.answer = answer;
    const hook: Hook = await createHook(client, world, rx.url, ["email.received"]);
    const inbox = await createInbox(client, world.owner.token, world.assignmentId, alias("rd"));
    const subject = `Redeliver ${randomBytes(4).toString("hex")}`;
    const sent = await sendMail(system.ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject, text: "hello" });
    expect(sent.data?.code).toBe(250);
    const first = await waitFor(() => rx.deliveries(hook.secret)[0], { what: "the email.received delivery" });
    expect(first.body.data).toMatchObject({ subject, inbox_id: inbox.id });
    const log = await logOf(client, world, hook.id, 1);
    expect(log.data[0]?.delivery_id).toBe(first.deliveryId);
    return { world, rx, hook, first };
  }

  it("when a delivered email.received is redelivered by its delivery_id, then the receiver gets the same body and delivery id, signed afresh, and the log shows it", async () => {
    const { world, rx, hook, first } = await deliveredMail(api);
    try {
      const res = await redeliver(world.owner.token, world, hook.id, first.deliveryId);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ delivery_id: first.deliveryId });

      // rx.deliveries checks every hit's signature against the secret and its body id against its header
      const again = await waitFor(() => rx.deliveries(hook.secret)[1], { what: "the redelivery" });
      expect(again.hit.raw.equals(first.hit.raw)).toBe(true);
      expect(again.deliveryId).toBe(first.deliveryId);
      expect(again.hit.headers["x-service-event"]).toBe("email.received");
      expect(Number(again.hit.headers["x-service-timestamp"])).toBeGreaterThanOrEqual(Number(first.hit.headers["x-service-timestamp"]));

      const log = await logOf(api, world, hook.id, 2);
      expect(log.data.map((e) => [e.delivery_id, e.attempt, e.success, e.response_status])).toEqual([
        [first.deliveryId, 1, true, 200],
        [first.deliveryId, 1, true, 200],
      ]);

      // a team API key with team.webhooks.manage may do it too
      const key = await apiKey(world, ["team.webhooks.manage"]);
      expect((await redeliver(key, world, hook.id, first.deliveryId)).status).toBe(202);
      const third = await waitFor(() => rx.deliveries(hook.secret)[2], { what: "the redelivery by API key" });
      expect(third.hit.raw.equals(first.hit.raw)).toBe(true);
      expect(third.deliveryId).toBe(first.deliveryId);
    } finally {
      await rx.close();
    }
  });

  // waits out the real first retry delay (5 s): runs alongside the rest of the file
  it.concurrent(
    "when the receiver fails the redelivery, then it is retried after the schedule's first delay and each attempt is logged",
    async () => {
      // the original delivery succeeds, the redelivery's first attempt fails, its retry succeeds
      const { world, rx, hook, first } = await deliveredMail(api, (n) => (n === 2 ? 503 : 200));
      try {
        expect((await redeliver(world.owner.token, world, hook.id, first.deliveryId)).status).toBe(202);
        const failedAttempt = await waitFor(() => rx.deliveries(hook.secret)[1], { what: "the failed redelivery attempt" });
        // while its retry is pending the series is in flight: a second redelivery is refused
        const busy = await redeliver(world.owner.token, world, hook.id, first.deliveryId);
        expect(busy.status).toBe(409);
        expect(busy.body.code).toBe("conflict");
        const retry = await waitFor(() => rx.deliveries(hook.secret)[2], { what: "the retry", timeoutMs: 20_000, intervalMs: 100 });
        expect(retry.hit.at - failedAttempt.hit.at).toBeGreaterThanOrEqual(4_900);
        expect(retry.hit.raw.equals(first.hit.raw)).toBe(true);
        expect(retry.deliveryId).toBe(first.deliveryId);
        const log = await logOf(api, world, hook.id, 3);
        expect(log.data.map((e) => [e.delivery_id, e.attempt, e.success, e.response_status])).toEqual([
          [first.deliveryId, 2, true, 200],
          [first.deliveryId, 1, false, 503],
          [first.deliveryId, 1, true, 200],
        ]);
        expect(rx.hits).toHaveLength(3);
      } finally {
        await rx.close();
      }
    },
    60_000,
  );

  // waits out the real first retry delay (5 s): runs alongside the rest of the file
  it.concurrent(
    "when a delivery is retried and then redelivered, then each attempt's X-Service-Signature-256 verifies with the SDK at its arrival; a replay after the tolerance is refused and a repeated id is dropped by the guard",
    async () => {
      // the first attempt fails, its retry (5 s later) succeeds; then the team redelivers it
      const world = await teamWithDomain(api);
      const rx = await Receiver.start();
      rx.answer = (n) => (n === 1 ? 503 : 200);
      try {
        const hook: Hook = await createHook(api, world, rx.url, ["email.received"]);
        const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("sig"));
        const sent = await sendMail(system.ports.smtp, {
          from: "sender@example.org",
          to: inbox.full_address,
          subject: "Signed",
          text: "hi",
        });
        expect(sent.data?.code).toBe(250);
        const retry = await waitFor(() => rx.deliveries(hook.secret)[1], { what: "the retry", timeoutMs: 20_000, intervalMs: 100 });
        await logOf(api, world, hook.id, 2);
        expect((await redeliver(world.owner.token, world, hook.id, retry.deliveryId)).status).toBe(202);
        await waitFor(() => rx.deliveries(hook.secret)[2], { what: "the redelivery" });
        const [first, , again] = rx.deliveries(hook.secret);
        expect(first && again).toBeTruthy();
        if (!first || !again) return;
        expect(retry.hit.at - first.hit.at).toBeGreaterThanOrEqual(4_900);
        expect([first.deliveryId, again.deliveryId]).toEqual([retry.deliveryId, retry.deliveryId]);

        const guard = createReplayGuard({ ttlMs: 60_000 });
        const handled: string[] = [];
        for (const [d, status] of [
          [first, 503],
          [retry, 200],
          [again, 200],
        ] as const) {
          // a tolerance shorter than the retry delay: the signed time is the attempt's, not the event's
          const verified = await verifyWebhook(hook.secret, d.hit.headers, d.hit.raw, { now: () => d.hit.at, toleranceSeconds: 3 });
          expect(verified.id).toBe(d.deliveryId);
          expect(String(d.hit.headers["x-service-signature-256"])).toMatch(
            new RegExp(`^t=${String(d.hit.headers["x-service-timestamp"])},v1=[0-9a-f]{64}$`),
          );
          if (guard.seen(verified.id)) continue;
          // the receiver answered 503 to the first: it did not handle it, so the retry must get through
          if (status !== 200) guard.forget(verified.id);
          else handled.push(`${verified.id}@${d.hit.at}`);
        }
        expect(handled).toEqual([`${retry.deliveryId}@${retry.hit.at}`]);

        // the retry captured and replayed: within the tolerance the guard drops it, after it verifyWebhook refuses it
        const replay = await verifyWebhook(hook.secret, retry.hit.headers, retry.hit.raw, {
          now: () => retry.hit.at + 60_000,
          toleranceSeconds: 300,
        });
        expect(guard.seen(replay.id)).toBe(true);
        const late = await verifyWebhook(hook.secret, retry.hit.headers, retry.hit.raw, { now: () => retry.hit.at + 301_000 }).then(
          () => "accepted",
          (err: unknown) => (err instanceof WebhookVerificationError ? err.reason : String(err)),
        );
        expect(late).toBe("stale_timestamp");
      } finally {
        await rx.close();
      }
    },
    60_000,
  );

  it("when the delivery is another team's or unknown, then 404 by API key and by JWT alike; a key without the scope gets 403", async () => {
    const mine = await deliveredMail(api);
    const theirs = await deliveredMail(api);
    try {
      const key = await apiKey(mine.world, ["team.webhooks.manage"]);
      const unknown = await redeliver(mine.world.owner.token, mine.world, mine.hook.id, randomUUID());
      expect(unknown.status).toBe(404);
      for (const token of [key, mine.world.owner.token]) {
        // their delivery id through my webhook
        const foreign = await redeliver(token, mine.world, mine.hook.id, theirs.first.deliveryId);
        expect([foreign.status, foreign.body]).toEqual([404, unknown.body]);
        expect((await redeliver(token, mine.world, mine.hook.id, randomUUID())).status).toBe(404);
      }
      // their webhook and delivery under their team's path: 404 for my JWT (not a member of their
      // org) and for my key (outside its own team), exactly as for ids that exist nowhere
      const nowhere = { ...theirs.world, orgId: randomUUID(), teamId: randomUUID() };
      for (const token of [mine.world.owner.token, key]) {
        const foreign = await redeliver(token, theirs.world, theirs.hook.id, theirs.first.deliveryId);
        const unknownTeam = await redeliver(token, nowhere, randomUUID(), randomUUID());
        expect(foreign.status).toBe(404);
        expect([foreign.status, foreign.body]).toEqual([unknownTeam.status, unknownTeam.body]);
      }
      const viewOnly = await apiKey(mine.world, ["team.webhooks.view"]);
      const refused = await redeliver(viewOnly, mine.world, mine.hook.id, mine.first.deliveryId);
      expect(refused.status).toBe(403);
      // nothing was sent again to either receiver
      const log = await logOf(api, mine.world, mine.hook.id, 1);
      expect(log.total).toBe(1);
      expect(mine.rx.hits).toHaveLength(1);
      expect(theirs.rx.hits).toHaveLength(1);
    } finally {
      await Promise.all([mine.rx.close(), theirs.rx.close()]);
    }
  });
});
