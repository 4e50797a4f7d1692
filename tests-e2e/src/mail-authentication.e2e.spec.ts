import { generateKeyPairSync, randomBytes } from "node:crypto";
import nodemailer from "nodemailer";
import { waitFor } from "@burnbox/test-kit";
import { apiClient } from "./clients";
import { testDns } from "./dns";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

type Verdict = { result: string };
interface Authentication {
  spf: Verdict & { domain: string | null };
  dkim: Array<Verdict & { domain: string; selector: string }>;
  dmarc: Verdict & { policy: string; domain: string | null };
  arc: Verdict;
}
type EmailView = { id: string; subject: string; authentication: Authentication | null };
type Summary = { id: string; subject: string; authentication_summary: string };

const SELECTOR = "e2e";

/** A DKIM key pair: the private key nodemailer signs with, the public key as the DNS publishes it. */
function dkimKeys(): { privateKey: string; record: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const spki = publicKey.export({ type: "spki", format: "der" }).toString("base64");
  return { privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), record: `v=DKIM1; k=rsa; p=${spki}` };
}

/**
 * Authentication results (extensions section 3) through the public ports: a sender domain whose
 * SPF, DKIM key and DMARC policy live on the test's DNS server (the system's `dns.servers`), mail
 * sent by nodemailer over SMTP from 127.0.0.1, the verdicts read back from GET /emails/:id and the
 * inbox's list.
 */
describe("authentication results of received mail", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let dns: Awaited<ReturnType<typeof testDns>>;
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  const tag = randomBytes(3).toString("hex");
  /** Publishes SPF `spf`, the DKIM key and DMARC `p=reject` for a new domain. */
  const senderDomain = (label: string, spf: string, keys = dkimKeys()) => {
    const domain = `${label}-${tag}.senders.e2e.test`;
    dns.zones.set(domain, { txt: [spf], ttl: 60 });
    dns.zones.set(`${SELECTOR}._domainkey.${domain}`, { txt: [keys.record], ttl: 60 });
    dns.zones.set(`_dmarc.${domain}`, { txt: ["v=DMARC1; p=reject"], ttl: 60 });
    return { domain, keys };
  };

  beforeAll(async () => {
    dns = await testDns(system.ports.dns);
    world = await teamWithDomain(api);
  });

  afterAll(async () => {
    await dns.close();
  });

  /** The message nodemailer builds (DKIM-signed when `keys` are given), as bytes. */
  async function compose(o: { from: string; to: string; subject: string; sign?: { domain: string; privateKey: string } }): Promise<Buffer> {
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
    const info = await composer.sendMail({
      from: o.from,
      to: o.to,
      subject: o.subject,
      text: "Your order has shipped.",
      html: "<p>Your order has <b>shipped</b>.</p>",
      ...(o.sign ? { dkim: { domainName: o.sign.domain, keySelector: SELECTOR, privateKey: o.sign.privateKey } } : {}),
    });
    return info.message as Buffer;
  }

  /** Sends `raw` with nodemailer's SMTP transport (no retry, no STARTTLS), as `helo` with envelope sender `sender`. */
  async function send(raw: Buffer, o: { sender: string; to: string; helo: string }): Promise<void> {
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: system.ports.smtp,
      secure: false,
      ignoreTLS: true,
      name: o.helo,
    });
    try {
      await transport.sendMail({ envelope: { from: o.sender, to: [o.to] }, raw });
    } finally {
      transport.close();
    }
  }

  async function received(inboxId: string, subject: string): Promise<{ email: EmailView; summary: Summary }> {
    const summary = await waitFor(
      async () => {
        const list = await api<{ data: Summary[] }>("GET", `/inboxes/${inboxId}/emails`, { token: world.owner.token });
        return list.body.data.find((e) => e.subject === subject) ?? null;
      },
      { what: `the mail "${subject}"` },
    );
    const email = await api<EmailView>("GET", `/emails/${summary.id}`, { token: world.owner.token });
    expect(email.status).toBe(200);
    return { email: email.body, summary };
  }

  it("when mail is DKIM-signed by its domain and sent from an address its SPF allows, then SPF, DKIM and DMARC pass and the raw message is stored as sent", async () => {
    const { domain, keys } = senderDomain("good", "v=spf1 ip4:127.0.0.1 -all");
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `good-${tag}`);
    const subject = `Signed ${tag}`;
    const raw = await compose({
      from: `Shop <orders@${domain}>`,
      to: inbox.full_address,
      subject,
      sign: { domain, privateKey: keys.privateKey },
    });
    await send(raw, { sender: `bounce@${domain}`, to: inbox.full_address, helo: `mta.${domain}` });

    const { email, summary } = await received(inbox.id, subject);
    expect(email.authentication).toEqual({
      spf: { result: "pass", domain },
      dkim: [{ result: "pass", domain, selector: SELECTOR }],
      dmarc: { result: "pass", policy: "reject", domain },
      arc: { result: "none" },
    });
    expect(summary.authentication_summary).toBe("pass");
    // no Authentication-Results (or any other) header was added: the bytes are the sender's
    const stored = await fetch(`${system.gatewayUrl}/api/v1/emails/${email.id}/raw`, {
      headers: { authorization: `Bearer ${world.owner.token}` },
    });
    expect(Buffer.from(await stored.arrayBuffer()).equals(raw)).toBe(true);
  });

  it("when signed mail is altered after signing, then its signature does not pass: neutral or fail for the body, fail for a header", async () => {
    const { domain, keys } = senderDomain("altered", "v=spf1 ip4:127.0.0.1 -all");
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `altered-${tag}`);
    const sign = { domain, privateKey: keys.privateKey };
    const bodySubject = `Body altered ${tag}`;
    const body = (await compose({ from: `orders@${domain}`, to: inbox.full_address, subject: bodySubject, sign })).toString("latin1");
    await send(Buffer.from(body.replace("Your order has shipped.", "Your order was cancelled."), "latin1"), {
      sender: `bounce@${domain}`,
      to: inbox.full_address,
      helo: `mta.${domain}`,
    });
    const headerSubject = `Header altered ${tag}`;
    const header = (await compose({ from: `orders@${domain}`, to: inbox.full_address, subject: headerSubject, sign })).toString("latin1");
    await send(Buffer.from(header.replace(`Subject: ${headerSubject}`, `Subject: ${headerSubject} (edited)`), "latin1"), {
      sender: `bounce@${domain}`,
      to: inbox.full_address,
      helo: `mta.${domain}`,
    });

    const bodyAltered = await received(inbox.id, bodySubject);
    expect(bodyAltered.email.authentication?.dkim).toEqual([
      { result: expect.stringMatching(/^(neutral|fail)$/), domain, selector: SELECTOR },
    ]);
    const headerAltered = await received(inbox.id, `${headerSubject} (edited)`);
    expect(headerAltered.email.authentication?.dkim).toEqual([{ result: "fail", domain, selector: SELECTOR }]);
    // SPF still passes for the envelope sender's domain, which is the From domain: DMARC passes by SPF
    expect(headerAltered.email.authentication?.spf).toEqual({ result: "pass", domain });
  });

  it("when the sender's SPF excludes 127.0.0.1 and the mail is unsigned, then SPF and DMARC fail and the mail is stored all the same under p=reject", async () => {
    const { domain } = senderDomain("spf-fail", "v=spf1 ip4:192.0.2.10 -all");
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `spffail-${tag}`);
    const subject = `SPF fail ${tag}`;
    await send(await compose({ from: `orders@${domain}`, to: inbox.full_address, subject }), {
      sender: `bounce@${domain}`,
      to: inbox.full_address,
      helo: `mta.${domain}`,
    });

    const { email, summary } = await received(inbox.id, subject);
    expect(email.authentication).toEqual({
      spf: { result: "fail", domain },
      dkim: [],
      dmarc: { result: "fail", policy: "reject", domain },
      arc: { result: "none" },
    });
    expect(summary.authentication_summary).toBe("fail");
  });

  it("when the DNS answers SERVFAIL, or does not answer at all, then the verdicts are temperror and the mail is stored and listed", async () => {
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `dnsfail-${tag}`);
    for (const fail of ["servfail", "silent"] as const) {
      const domain = `${fail}-${tag}.senders.e2e.test`;
      for (const name of [domain, `_dmarc.${domain}`, `${SELECTOR}._domainkey.${domain}`]) dns.zones.set(name, { fail });
      const keys = dkimKeys();
      const subject = `DNS ${fail} ${tag}`;
      const raw = await compose({
        from: `orders@${domain}`,
        to: inbox.full_address,
        subject,
        sign: { domain, privateKey: keys.privateKey },
      });
      // the 250 comes back: DNS trouble never refuses a message
      await send(raw, { sender: `bounce@${domain}`, to: inbox.full_address, helo: `mta.${domain}` });

      const { email, summary } = await received(inbox.id, subject);
      expect(email.authentication).toEqual({
        spf: { result: "temperror", domain },
        dkim: [{ result: "temperror", domain, selector: SELECTOR }],
        dmarc: { result: "temperror", policy: "none", domain },
        arc: expect.objectContaining({ result: expect.stringMatching(/^(none|temperror)$/) }),
      });
      expect(summary.authentication_summary).toBe("none");
    }
  });
});
