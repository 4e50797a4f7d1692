import { randomUUID } from "node:crypto";
import type { NatsConnection } from "@nats-io/nats-core";
import { RpcName, type Actor } from "@burnbox/contracts";
import { makeActor, testInfra, uniqueNamespace, waitFor } from "@burnbox/test-kit";
import { connectNats, publishChanges, serveRpc } from "../src/messaging";
import { createLogger } from "../src/runtime";
import { authorize, cacheFor } from "../src/security";

const logger = createLogger({ service: "kit-test", level: "silent" });

/** What tenancy's unit of work broadcasts when a member is removed: the commit's event. */
const memberRemoved = (orgId: string) => [{ type: "member.removed", org_id: orgId, team_id: null, data: {} }];

/**
 * The per-process RBAC decision cache against the real NATS: one "tenancy" answering
 * `tenancy.authorize` from a mutable member list, two "replicas" of a service asking it.
 */
describe("authorization decisions cached per replica and dropped on tenancy's commits", () => {
  const ns = uniqueNamespace("authz");
  const orgId = randomUUID();
  const teamId = randomUUID();
  const members = new Set<string>();
  let calls = 0;
  let gate: Promise<void> | null = null;
  let tenancy: NatsConnection;
  let replicas: [NatsConnection, NatsConnection];
  let rpc: { stop(): Promise<void> };

  beforeAll(async () => {
    tenancy = await connectNats(testInfra.natsUrl, "tenancy", logger);
    rpc = serveRpc(
      tenancy,
      ns,
      RpcName.authorize,
      async (req) => {
        calls++;
        const allowed = members.has(req.actor.user_id);
        const hold = gate; // holds only the next request
        gate = null;
        if (hold) await hold;
        return allowed ? { allowed: true, reason: null } : { allowed: false, reason: "not_member" };
      },
      logger,
    );
    await tenancy.flush();
    replicas = [await connectNats(testInfra.natsUrl, "replica-1", logger), await connectNats(testInfra.natsUrl, "replica-2", logger)];
    for (const nc of replicas) cacheFor(nc, ns);
    await waitFor(() => replicas.every((nc) => cacheFor(nc, ns).active), { what: "the invalidation subscriptions" });
  });

  afterAll(async () => {
    await rpc.stop();
    await Promise.all([tenancy, ...replicas].map((nc) => nc.close()));
  });

  const ask = (nc: NatsConnection, actor: Actor) =>
    authorize(nc, ns, { actor, org_id: orgId, team_id: teamId, permission: "team.inboxes.view" }).then(
      () => "allowed",
      (err: { status?: number }) => `denied ${err.status}`,
    );

  it("asks tenancy once per decision, then answers from memory on each replica", async () => {
    const user = makeActor({ user_id: randomUUID() });
    members.add(user.user_id);
    const before = calls;
    for (let i = 0; i < 5; i++) for (const nc of replicas) expect(await ask(nc, user)).toBe("allowed");
    expect(calls - before).toBe(2); // one per replica
  });

  it("asks tenancy once when many requests miss the same decision at the same time", async () => {
    const user = makeActor({ user_id: randomUUID() });
    members.add(user.user_id);
    const before = calls;
    const answers = await Promise.all(Array.from({ length: 50 }, () => ask(replicas[0], user)));
    expect(answers.every((a) => a === "allowed")).toBe(true);
    expect(calls - before).toBe(1);
  });

  it("keys the decision on the API key and its scopes as well as the user", async () => {
    const user = makeActor({ user_id: randomUUID() });
    members.add(user.user_id);
    const keyed = { ...user, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.inboxes.view"] } };
    const before = calls;
    await ask(replicas[0], user);
    await ask(replicas[0], keyed);
    await ask(replicas[0], { ...keyed, api_key: { ...keyed.api_key, scopes: [] } });
    expect(calls - before).toBe(3);
  });

  it("a removed member loses access on every replica as soon as tenancy broadcasts the change", async () => {
    const user = makeActor({ user_id: randomUUID() });
    members.add(user.user_id);
    for (const nc of replicas) expect(await ask(nc, user)).toBe("allowed");
    members.delete(user.user_id);
    // without the broadcast the cached grant is still served: that is what the broadcast is for
    expect(await ask(replicas[0], user)).toBe("allowed");
    const sent = Date.now();
    void publishChanges(tenancy, ns, memberRemoved(orgId));
    await waitFor(async () => (await Promise.all(replicas.map((nc) => ask(nc, user)))).every((r) => r === "denied 404"), {
      what: "every replica to deny",
      timeoutMs: 1000,
    });
    expect(Date.now() - sent).toBeLessThan(1000);
  });

  it("is not dropped by another service's commits", async () => {
    const user = makeActor({ user_id: randomUUID() });
    members.add(user.user_id);
    await ask(replicas[0], user);
    const before = calls;
    await publishChanges(tenancy, ns, [{ type: "audit.recorded", org_id: orgId, team_id: teamId, data: { action: "inbox.created" } }]);
    await publishChanges(tenancy, ns, [{ type: "inbox.created", org_id: orgId, team_id: teamId, data: {} }]);
    await replicas[0].flush(); // the broadcasts, had they dropped anything, have been handled
    expect(await ask(replicas[0], user)).toBe("allowed");
    expect(calls).toBe(before);
  });

  it("never stores a decision that was asked before an invalidation and answered after it", async () => {
    const user = makeActor({ user_id: randomUUID() });
    members.add(user.user_id);
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const before = calls;
    const inFlight = ask(replicas[0], user); // tenancy computes "allowed" and is held
    await waitFor(() => calls > before, { what: "the request to reach tenancy" });
    members.delete(user.user_id);
    void publishChanges(tenancy, ns, memberRemoved(orgId));
    await waitFor(async () => (await ask(replicas[1], user)) === "denied 404", { what: "the broadcast" });
    open();
    expect(await inFlight).toBe("allowed"); // the stale answer reaches only the request that asked
    expect(await ask(replicas[0], user)).toBe("denied 404"); // and was not kept
  });
});
