import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage, deliverOk } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

interface WaitAnswer {
  data: Array<{ id: string; subject: string }>;
  matched: number;
  timed_out: boolean;
}

/** A wait's matchers cannot freeze the inbox service (issue 38, part 1): bounded patterns, a 64 KiB cut, matching in turns. */
describe("waiting for mail, safely", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  const tag = () => randomBytes(4).toString("hex");

  beforeAll(async () => {
    world = await teamWithDomain(api);
  });

  const newInbox = (label: string) => createInbox(api, world.owner.token, world.assignmentId, `${label}-${tag()}`);

  const deliver = (to: string, subject: string, body: string): Promise<void> =>
    deliverOk(system.ports.smtp, "sender@acme.example", to, buildMessage({ from: "sender@acme.example", to, subject, text: body }));

  /**
   * About `chars` characters of letters with a space now and then (no two mails alike), in lines of
   * 70: text on which a pattern's automaton meets new states all along, its costliest kind.
   */
  const letters = (chars: number, seed: number) => {
    let x = seed;
    const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    const lines: string[] = [];
    for (let n = 0; n < chars; n += 72)
      lines.push(Array.from({ length: 70 }, () => (next() < 0.1 ? " " : "abcdefghijklmnop"[Math.floor(next() * 16)])).join(""));
    return lines.join("\r\n");
  };

  const wait = (inboxId: string, query: string, token = world.owner.token) =>
    api<WaitAnswer>("GET", `/inboxes/${inboxId}/emails/wait?${query}`, { token });

  it("when a wait matches a costly but allowed pattern against large mail, then another tenant's GET /inboxes/:id answers within 100 ms", async () => {
    const inbox = await newInbox("costly");
    const MAILS = 10;
    for (let i = 0; i < MAILS; i++) await deliver(inbox.full_address, `big ${i}`, letters(100_000, i + 1));
    const stored = await wait(inbox.id, `subject=big&count=${MAILS}&timeout=20s`);
    expect(stored.body).toMatchObject({ matched: MAILS, timed_out: false });

    const other = await teamWithDomain(api);
    const theirs = await createInbox(api, other.owner.token, other.assignmentId, `theirs-${tag()}`);
    const probe = async () => {
      const t0 = performance.now();
      const r = await api("GET", `/inboxes/${theirs.id}`, { token: other.owner.token });
      expect(r.status).toBe(200);
      return performance.now() - t0;
    };
    await probe();

    // 243 instructions, within WAIT_LIMITS.patternMaxProgram: tens of ms per 64 KiB body at worst; every mail is matched
    // three at once, each with its own compiled pattern
    let settled = false;
    const query = `body_re=${encodeURIComponent("(\\w+\\s*){40}$")}&count=${MAILS}&timeout=20s`;
    const waiting = Promise.all([1, 2, 3].map(() => wait(inbox.id, query))).finally(() => {
      settled = true;
    });
    const latencies: number[] = [];
    while (!settled) latencies.push(await probe());
    for (const r of await waiting) {
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ matched: MAILS, timed_out: false });
    }
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(100);
  });

  it("when a pattern's counted repetition or compiled program is too large, then 400 in the envelope that says why", async () => {
    const inbox = await newInbox("bounds");
    const cases: Array<[string, string, RegExp]> = [
      ["body_re", "(\\w+\\s?){1000}$", /^body_re: counted repetition too large \(at most 100\)$/],
      ["subject_re", "(a{100}){100}", /^subject_re: counted repetition too large \(at most 100\)$/],
      ["body_re", "(\\w+\\s?){60}(\\w+\\s?){60}", /^body_re: pattern too complex \(at most 300 instructions, this one compiles to \d+\)$/],
    ];
    for (const [field, pattern, message] of cases) {
      const r = await wait(inbox.id, `${field}=${encodeURIComponent(pattern)}&timeout=0`);
      expect({ pattern, status: r.status }).toEqual({ pattern, status: 400 });
      expect(r.body).toMatchObject({ code: "validation_error", error: expect.stringMatching(message) });
    }
    // within the bounds: answered
    const ok = await wait(
      inbox.id,
      `body_re=${encodeURIComponent("(\\w+\\s*){40}$")}&subject_re=${encodeURIComponent("\\d{100}")}&timeout=0`,
    );
    expect(ok.status).toBe(200);
  });

  it("when the text sought lies beyond the first 64 KiB of a body, then the wait does not find it", async () => {
    const inbox = await newInbox("cut");
    const filler = letters(70_000, 7);
    await deliver(inbox.full_address, "early", `needle-early ${filler}`);
    await deliver(inbox.full_address, "late", `${filler} needle-late`);
    expect((await wait(inbox.id, "subject=e&count=2&timeout=20s")).body).toMatchObject({ matched: 2 });
    expect((await wait(inbox.id, "body=needle-early&timeout=0")).body).toMatchObject({ matched: 1, data: [{ subject: "early" }] });
    expect((await wait(inbox.id, "body=needle-late&timeout=0")).body).toMatchObject({ matched: 0 });
    expect((await wait(inbox.id, `body_re=${encodeURIComponent("needle-late$")}&timeout=0`)).body).toMatchObject({ matched: 0 });
  });

  it("when a user holds 100 waits, then even a wait that would answer at once is 429 (the slot comes before the read)", async () => {
    const user = await teamWithDomain(api);
    const inbox = await createInbox(api, user.owner.token, user.assignmentId, `slot-${tag()}`);
    // 101 at once on an empty inbox: 100 held, one refused
    const answered: Array<Awaited<ReturnType<typeof wait>>> = [];
    const all = Array.from({ length: 101 }, () => wait(inbox.id, "timeout=60s", user.owner.token).then((r) => answered.push(r)));
    const refused = await waitFor(() => answered.find((r) => r.status === 429), { what: "the 101st refused", timeoutMs: 30_000 });
    expect(refused.body).toEqual({ error: expect.any(String), retry_after: expect.any(Number) });
    // one that would answer at once (timeout=0) takes its slot before it reads: refused too
    const immediate = await wait(inbox.id, "timeout=0", user.owner.token);
    expect(immediate.status).toBe(429);
    expect(answered).toHaveLength(1);
    expect((await api("DELETE", `/inboxes/${inbox.id}`, { token: user.owner.token })).status).toBe(204);
    await Promise.all(all);
    expect(answered.filter((r) => r.status === 404)).toHaveLength(100);
  });
});
