import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, SmtpSession } from "./clients";
import { startRspamd, stopRspamd } from "./rspamd";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

const CRLF = "\r\n";
/** The standard test string every spam filter scores as spam (rspamd: action `reject`). */
const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";

type Spam =
  | {
      status: "scored";
      score: number;
      required_score: number;
      action: string;
      symbols: Array<{ name: string; score: number; description?: string }>;
    }
  | { status: "unavailable" }
  | { status: "disabled" };
type Summary = { id: string; subject: string; spam_score: number | null; spam_required_score: number | null };

const message = (o: { from: string; to: string; subject: string; text: string }) =>
  [
    `From: ${o.from}`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Message-ID: <${randomBytes(8).toString("hex")}@e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.text,
  ].join(CRLF);

/**
 * The spam score (extensions section 9) through the public ports: mail sent over SMTP to the
 * run's intake, scored by the run's own rspamd, read back from GET /emails/:id, the list, the wait
 * and the search; and rspamd stopped in the middle of a burst, every accepted message stored.
 */
describe("spam scores of received mail", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let token = "";
  let assignmentId = "";
  let inboxId = "";
  let address = "";
  const tag = randomBytes(3).toString("hex");

  async function deliver(to: string, subject: string, text: string): Promise<number> {
    const s = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await s.command("MAIL FROM:<sender@shop.example>")).code).toBe(250);
      expect((await s.command(`RCPT TO:<${to}>`)).code).toBe(250);
      return (await s.data(message({ from: "sender@shop.example", to, subject, text }))).code;
    } finally {
      await s.quit();
    }
  }

  const list = async (q?: string) =>
    (await api<{ data: Summary[] }>("GET", `/inboxes/${inboxId}/emails${q ? `?q=${encodeURIComponent(q)}` : ""}`, { token })).body.data;
  const spamOf = async (id: string) => (await api<{ spam: Spam }>("GET", `/emails/${id}`, { token })).body.spam;

  beforeAll(async () => {
    if (!system.rspamdPort) throw new Error("rspamd is not installed (apt-get install rspamd): the spam score's tests need it");
    const world = await teamWithDomain(api);
    token = world.owner.token;
    assignmentId = world.assignmentId;
    const inbox = await createInbox(api, token, assignmentId, `spam-${tag}`);
    inboxId = inbox.id;
    address = inbox.full_address;
    expect(await deliver(address, "GTUBE sample", `This is the GTUBE, the test string every filter knows:${CRLF}${GTUBE}`)).toBe(250);
    expect(await deliver(address, "Lunch tomorrow", "Hi, shall we have lunch tomorrow at noon? See you then.")).toBe(250);
    await waitFor(async () => ((await list()).length === 2 ? true : undefined), { what: "both emails stored" });
  });

  it("when a GTUBE mail arrives, then it is scored high, with action reject and its symbols, and stored all the same", async () => {
    const gtube = (await list()).find((e) => e.subject === "GTUBE sample")!;
    const spam = await spamOf(gtube.id);
    expect(spam.status).toBe("scored");
    if (spam.status !== "scored") return;
    expect(spam.action).toBe("reject");
    expect(spam.score).toBeGreaterThanOrEqual(spam.required_score);
    expect(spam.symbols.map((s) => s.name)).toContain("GTUBE");
    expect(gtube.spam_score).toBe(spam.score);
    expect(gtube.spam_required_score).toBe(spam.required_score);
  });

  it("when a plain mail arrives, then it is scored low, under the required score", async () => {
    const plain = (await list()).find((e) => e.subject === "Lunch tomorrow")!;
    const spam = await spamOf(plain.id);
    expect(spam.status).toBe("scored");
    if (spam.status !== "scored") return;
    expect(spam.score).toBeLessThan(spam.required_score);
    expect(spam.action).toBe("no action");
    expect(plain.spam_score).toBe(spam.score);
    expect(plain.spam_required_score).toBe(spam.required_score);
  });

  it("when the sender's address is not Latin-1 (SMTPUTF8), then the message is accepted and scored", async () => {
    // an inbox of its own: the list of the tests above holds their two mails only
    const utf8 = await createInbox(api, token, assignmentId, `spam-utf8-${tag}`);
    const sender = "用户@例子.广告";
    const s = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await s.command(`MAIL FROM:<${sender}> SMTPUTF8`)).code).toBe(250);
      expect((await s.command(`RCPT TO:<${utf8.full_address}>`)).code).toBe(250);
      const text = "Hello from an internationalised address.";
      expect((await s.data(message({ from: sender, to: utf8.full_address, subject: "UTF-8 sender", text }))).code).toBe(250);
    } finally {
      await s.quit();
    }
    const stored = await waitFor(
      async () => (await api<{ data: Summary[] }>("GET", `/inboxes/${utf8.id}/emails`, { token })).body.data[0],
      { what: "the mail of the UTF-8 sender stored" },
    );
    expect((await spamOf(stored.id)).status).toBe("scored");
  });

  it("when the search asks spam:>5 or spam:<=5, then only the mail on that side of 5 is listed", async () => {
    expect((await list("spam:>5")).map((e) => e.subject)).toEqual(["GTUBE sample"]);
    expect((await list("spam:<=5")).map((e) => e.subject)).toEqual(["Lunch tomorrow"]);
    const bad = await api<{ error: { code: string } }>("GET", `/inboxes/${inboxId}/emails?q=${encodeURIComponent("spam:5")}`, { token });
    expect(bad.status).toBe(400);
  });

  it("when a wait gives spam_max, then only mail scored at or below it answers it", async () => {
    const res = await api<{ data: Summary[]; matched: number }>("GET", `/inboxes/${inboxId}/emails/wait?spam_max=5&count=2&timeout=0`, {
      token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e) => e.subject)).toEqual(["Lunch tomorrow"]);
    const bad = await api("GET", `/inboxes/${inboxId}/emails/wait?spam_max=lots&timeout=0`, { token });
    expect(bad.status).toBe(400);
  });

  it("when rspamd stops in the middle of a burst, then every accepted message is stored, those it missed unavailable", async () => {
    const outage = await createInbox(api, token, assignmentId, `spam-outage-${tag}`);
    const sent: Array<Promise<number>> = [];
    // the burst: one message at a time on its own connection, rspamd stopped after the fifth and started after the fifteenth
    try {
      for (let i = 0; i < 20; i++) {
        if (i === 5) await stopRspamd();
        sent.push(deliver(outage.full_address, `burst ${i}`, `message ${i} of the burst`));
        await sent[i];
        if (i === 14) await startRspamd(system.rspamdPort!);
      }
    } finally {
      // rspamd is back for the other files whatever happened
      await startRspamd(system.rspamdPort!).catch(() => undefined);
    }
    const codes = await Promise.all(sent);
    const accepted = codes.filter((c) => c === 250).length;
    expect(accepted).toBe(20);
    const stored = await waitFor(
      async () => {
        const res = await api<{ data: Summary[] }>("GET", `/inboxes/${outage.id}/emails?per_page=100`, { token });
        return res.body.data.length === accepted ? res.body.data : undefined;
      },
      { what: "every accepted message stored" },
    );
    const statuses = new Map<string, string>();
    for (const e of stored) statuses.set(e.subject, (await spamOf(e.id)).status);
    for (let i = 5; i < 15; i++) expect(statuses.get(`burst ${i}`)).toBe("unavailable");
    for (let i = 0; i < 5; i++) expect(statuses.get(`burst ${i}`)).toBe("scored");
    expect(statuses.get("burst 19")).toBe("scored");
    for (const e of stored) expect(e.spam_score === null).toBe(statuses.get(e.subject) !== "scored");
    for (const e of stored) expect(e.spam_required_score === null).toBe(statuses.get(e.subject) !== "scored");
  });
});
