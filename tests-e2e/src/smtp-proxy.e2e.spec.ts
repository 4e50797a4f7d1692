import { randomBytes } from "node:crypto";
import net from "node:net";
import nodemailer from "nodemailer";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage, SmtpSession } from "./clients";
import { testDns } from "./dns";
import { SharedSystem, SMTP_PROXY_BALANCER } from "./shared-system";
import { teamWithDomain, type Api } from "./world";

type Transcript = { client_ip: string; helo: string | null; tls: boolean; lines: Array<{ dir: "c" | "s"; text: string }> };
type Attempt = { rcpt_to: string; code: number; transcript: Transcript };
type EmailView = { id: string; subject: string; authentication: { spf: { result: string; domain: string | null } } | null };

/** The client a load balancer names in its header: an address the runner never has. */
const CLIENT = "203.0.113.7";

/** A PROXY protocol version 2 header (binary, as AWS's NLB sends it) naming `client:port` over TCP/IPv4. */
function proxyV2(client: string, port: number): Buffer {
  const body = Buffer.alloc(12);
  client.split(".").forEach((octet, i) => (body[i] = Number(octet)));
  [127, 0, 0, 1].forEach((octet, i) => (body[4 + i] = octet));
  body.writeUInt16BE(port, 8);
  body.writeUInt16BE(25, 10);
  return Buffer.concat([Buffer.from("0d0a0d0a000d0a515549540a2111000c", "hex"), body]);
}

/**
 * A TCP load balancer in miniature: it listens on 127.0.0.1 and, for every connection, connects
 * to the intake from the address the shared system trusts for the PROXY protocol
 * (`SMTP_PROXY_BALANCER`), writes the header naming `CLIENT`, then passes the bytes both ways.
 */
async function proxyingRelay(smtpPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    const upstream = net.connect({ port: smtpPort, host: "127.0.0.1", localAddress: SMTP_PROXY_BALANCER });
    for (const s of [downstream, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => (s === upstream ? downstream : upstream).destroy());
    }
    upstream.once("connect", () => {
      upstream.write(proxyV2(CLIENT, downstream.remotePort ?? 0));
      downstream.pipe(upstream);
      upstream.pipe(downstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The sender's real address behind a load balancer (issue 41): mail sent through a PROXY-protocol
 * hop is the client's in the SMTP log, the transcript and the SPF verdict, against the test's own
 * DNS server (`dns.servers`); a PROXY header from a peer outside `smtp.proxy_protocol.trusted_cidrs`
 * is not believed.
 */
describe("the SMTP intake behind a PROXY-protocol load balancer", () => {
  const system = SharedSystem.attach();
  const api: Api = apiClient(system.gatewayUrl);
  let dns: Awaited<ReturnType<typeof testDns>>;
  let relay: Awaited<ReturnType<typeof proxyingRelay>>;
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  const tag = randomBytes(3).toString("hex");
  /** A sender domain whose SPF allows the client named by the balancer and nobody else. */
  const domain = `lb-${tag}.senders.e2e.test`;

  beforeAll(async () => {
    dns = await testDns(system.ports.dns);
    dns.zones.set(domain, { txt: [`v=spf1 ip4:${CLIENT} -all`], ttl: 60 });
    relay = await proxyingRelay(system.ports.smtp);
    world = await teamWithDomain(api);
  });

  afterAll(async () => {
    await relay?.close();
    await dns?.close();
  });

  async function inbox(alias: string, smtpBehaviour?: unknown): Promise<{ id: string; full_address: string }> {
    const res = await api<{ id: string; full_address: string }>("POST", "/inboxes", {
      token: world.owner.token,
      body: {
        domain_assignment_id: world.assignmentId,
        alias: `${alias}-${tag}`,
        ...(smtpBehaviour ? { smtp_behaviour: smtpBehaviour } : {}),
      },
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  async function received(inboxId: string, subject: string): Promise<EmailView> {
    const listed = await waitFor(
      async () => {
        const res = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inboxId}/emails`, {
          token: world.owner.token,
        });
        return res.body.data.find((e) => e.subject === subject) ?? null;
      },
      { what: `the mail "${subject}"` },
    );
    const email = await api<EmailView>("GET", `/emails/${listed.id}`, { token: world.owner.token });
    expect(email.status).toBe(200);
    return email.body;
  }
  const transcriptOf = async (emailId: string) => {
    const res = await api<Transcript>("GET", `/emails/${emailId}/transcript`, { token: world.owner.token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const smtpLog = async (inboxId: string) => {
    const res = await api<{ data: Attempt[] }>("GET", `/inboxes/${inboxId}/smtp-log`, { token: world.owner.token });
    expect(res.status).toBe(200);
    return res.body.data;
  };

  it("when mail comes through the balancer, then the SMTP log, the transcript and SPF see the client it named, not the balancer", async () => {
    const refusing = await inbox("lb-refusing", { reject_rcpt: { code: 550, message: "5.7.1 Not here" } });
    const target = await inbox("lb-target");
    const subject = `through the balancer ${tag}`;
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: relay.port,
      secure: false,
      ignoreTLS: true,
      name: `mta.${domain}`,
    });
    try {
      const info = await transport.sendMail({
        envelope: { from: `bounce@${domain}`, to: [refusing.full_address, target.full_address] },
        raw: buildMessage({ from: `orders@${domain}`, to: target.full_address, subject, text: "sent through a PROXY-protocol hop" }),
      });
      expect(info.accepted).toEqual([target.full_address]);
    } finally {
      transport.close();
    }

    const email = await received(target.id, subject);
    expect(email.authentication?.spf).toEqual({ result: "pass", domain });
    expect(await transcriptOf(email.id)).toMatchObject({ client_ip: CLIENT, helo: `mta.${domain}`, tls: false });
    const [attempt, ...more] = await smtpLog(refusing.id);
    expect(more).toEqual([]);
    expect(attempt).toMatchObject({ rcpt_to: refusing.full_address, code: 550, transcript: { client_ip: CLIENT } });
  });

  it("when a peer outside the trusted ranges sends a PROXY header, then it is not believed: the session, the transcript and SPF stay its own", async () => {
    const target = await inbox("direct");
    const subject = `direct with a claimed address ${tag}`;
    // the runner's 127.0.0.1 is not the balancer: its PROXY line is an unknown command
    const session = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await session.command(`PROXY TCP4 ${CLIENT} 127.0.0.1 40000 25`)).code).toBe(500);
      expect((await session.command(`MAIL FROM:<bounce@${domain}>`)).code).toBe(250);
      expect((await session.command(`RCPT TO:<${target.full_address}>`)).code).toBe(250);
      const sent = await session.data(
        buildMessage({ from: `orders@${domain}`, to: target.full_address, subject, text: "claims to be someone else" }),
      );
      expect(sent.code).toBe(250);
    } finally {
      await session.quit();
    }
    const email = await received(target.id, subject);
    expect(email.authentication?.spf).toEqual({ result: "fail", domain });
    expect(await transcriptOf(email.id)).toMatchObject({ client_ip: "127.0.0.1" });

    // nor as the very first bytes, the way a balancer sends it: the client spoke before the greeting
    const early = net.connect({ port: system.ports.smtp, host: "127.0.0.1" });
    const first = await new Promise<string>((resolve, reject) => {
      early.once("connect", () => early.write(proxyV2(CLIENT, 40001)));
      early.once("data", (chunk) => resolve(chunk.toString("utf8")));
      early.once("error", reject);
    });
    early.destroy();
    expect(first).toMatch(/^421 .*talk too soon/);
  });
});
