import { randomUUID } from "node:crypto";
import { createLogger } from "@burnbox/service-kit/runtime";
import { MailWaits, type HeldWait } from "./mail-waits";

const scope = { orgId: randomUUID(), teamId: randomUUID() };

/** A held wait on `inboxId` that takes nothing, whose re-read is `recheck`. */
const heldWait = (inboxId: string, recheck: () => Promise<void> = () => Promise.resolve()): HeldWait => ({
  inboxId,
  scope,
  columns: { bodies: false, headers: false },
  offer: () => undefined,
  gone: () => undefined,
  drain: () => undefined,
  recheck,
});

describe("MailWaits.recheckAll (after a NATS reconnect)", () => {
  const lines: string[] = [];
  const logger = createLogger({ service: "inbox", level: "warn", destination: { write: (l: string) => void lines.push(l) } });

  it("when waits are held on several inboxes, then each re-reads once, a few at a time, and a failed one is logged without stopping the others", async () => {
    const waits = new MailWaits(() => Promise.resolve([]), logger);
    let inFlight = 0;
    let most = 0;
    const rechecked: string[] = [];
    const held = (inboxId: string, fail = false): HeldWait =>
      heldWait(inboxId, async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        rechecked.push(inboxId);
        if (fail) throw new Error("database unavailable");
      });
    const inboxes = Array.from({ length: 10 }, () => randomUUID());
    for (const id of inboxes) waits.add(held(id));
    waits.add(held(inboxes[0]!)); // a second wait on one inbox re-reads too (its own `since`, `unread`)
    waits.add(held(randomUUID(), true));

    await waits.recheckAll();

    expect(rechecked).toHaveLength(12);
    expect(rechecked.filter((id) => id === inboxes[0])).toHaveLength(2);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
    expect(lines.join("\n")).toContain("could not re-read the store for a held wait");
  });

  it("when nothing is held, then nothing is read", async () => {
    const waits = new MailWaits(() => Promise.reject(new Error("never")), logger);
    await expect(waits.recheckAll()).resolves.toBeUndefined();
  });
});

describe("MailWaits' wake source", () => {
  const logger = createLogger({ service: "inbox", level: "silent" });

  it("when an inbox gets its first wait, then it is watched, ready once the watch resolves, and unwatched when its last wait ends", async () => {
    const waits = new MailWaits(() => Promise.resolve([]), logger);
    const calls: string[] = [];
    let subscribed!: () => void;
    waits.wakeFrom({
      watch: (inboxId) => {
        calls.push(`watch ${inboxId}`);
        return new Promise<void>((r) => (subscribed = r));
      },
      unwatch: (inboxId) => void calls.push(`unwatch ${inboxId}`),
    });
    const [a, b] = [randomUUID(), randomUUID()];
    const removeFirst = waits.add(heldWait(a));
    const removeSecond = waits.add(heldWait(a));
    let ready = false;
    const readied = waits.ready(a).then(() => (ready = true));
    await new Promise((r) => setImmediate(r));
    expect(ready).toBe(false);
    subscribed();
    await readied;
    expect(calls).toEqual([`watch ${a}`]);
    await expect(waits.ready(b)).resolves.toBeUndefined(); // nothing held there: nothing to wait for
    removeFirst();
    removeFirst(); // twice: no effect
    expect(calls).toEqual([`watch ${a}`]);
    removeSecond();
    expect(calls).toEqual([`watch ${a}`, `unwatch ${a}`]);
  });
});
