import { createUnitOfWork, type OutboxWriter } from "./unit-of-work";
import type { OutboxRelay } from "../messaging/outbox";

/** A stand-in transaction runner recording what each transaction wrote (the kit's own logic under test). */
function harness() {
  const committed: Array<{ subject: string; payload: Record<string, unknown> }> = [];
  const handed: Array<Array<{ id: string; subject: string }>> = [];
  const relay: OutboxRelay = {
    publishCommitted: (rows) => void handed.push(rows.map((r) => ({ id: r.id, subject: r.subject }))),
    stop: async () => undefined,
    flush: async () => 0,
  };
  const uow = createUnitOfWork({
    client: "client" as const,
    transaction: async <T>(fn: (tx: OutboxWriter & { name: "tx" }) => Promise<T>): Promise<T> => {
      const staged: typeof committed = [];
      const value = await fn({
        name: "tx",
        // the statement's parameters: ids, subjects and JSON payloads, one element per row
        $executeRaw: async (_query: TemplateStringsArray, ...values: unknown[]) => {
          const [ids, subjects, payloads] = values as [string[], string[], string[]];
          staged.push(
            ...ids.map((_, i) => ({
              subject: subjects[i] as string,
              payload: JSON.parse(payloads[i] as string) as Record<string, unknown>,
            })),
          );
          return ids.length;
        },
      });
      committed.push(...staged); // only a transaction that returns commits
      return value;
    },
    repositories: (db) => ({ db: typeof db === "string" ? db : db.name }),
    relay,
    namespace: "ns",
  });
  return { uow, committed, handed };
}

const ctx = { actor: { user_id: "5b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d", api_key: null }, ip: "10.0.0.1" };
const ORG = "6b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d";

describe("createUnitOfWork", () => {
  it("when reading, then the repositories are bound to the plain client", () => {
    expect(harness().uow.repos.db).toBe("client");
  });

  it("when a change records an event and an audit entry, then both reach the outbox in its transaction and the committed rows go to the relay once", async () => {
    const h = harness();
    const seen = await h.uow.write(async (repos, events) => {
      events.audit({ ctx, action: "org.updated", org_id: ORG, target: { type: "org", id: ORG }, metadata: { name: "x" } });
      return repos.db;
    });
    expect(seen).toBe("tx");
    expect(h.committed).toHaveLength(1);
    expect(h.committed[0]?.subject).toBe("ns.events.audit.recorded");
    expect(h.committed[0]?.payload).toMatchObject({
      type: "audit.recorded",
      org_id: ORG,
      data: { action: "org.updated", actor_user_id: ctx.actor.user_id, ip_address: "10.0.0.1", target_id: ORG, metadata: { name: "x" } },
    });
    expect(h.handed).toEqual([[{ id: h.committed[0]?.payload.id, subject: "ns.events.audit.recorded" }]]);
  });

  it("when a change throws, then nothing is written and nothing goes to the relay", async () => {
    const h = harness();
    await expect(
      h.uow.write(async (_repos, events) => {
        events.audit({ ctx, action: "org.updated", org_id: ORG, target: { type: "org", id: ORG } });
        throw new Error("rule broken");
      }),
    ).rejects.toThrow("rule broken");
    expect(h.committed).toEqual([]);
    expect(h.handed).toEqual([]);
  });

  it("when a change emits nothing, then nothing goes to the relay", async () => {
    const h = harness();
    await h.uow.write(async () => 1);
    expect(h.handed).toEqual([]);
  });
});
