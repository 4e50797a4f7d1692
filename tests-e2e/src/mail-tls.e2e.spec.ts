import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import tls from "node:tls";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage } from "./clients";
import { SharedSystem, SMTP_TLS_FIXTURES } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

interface Reply {
  code: number;
  lines: string[];
}

/** A raw SMTP client that can upgrade its connection with STARTTLS (node:tls), as a sending server does. */
class StarttlsClient {
  private buffer = "";
  private pending: string[] = [];
  private waiters: Array<(r: Reply) => void> = [];
  private socket: net.Socket | tls.TLSSocket;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.listen(socket);
  }

  static async connect(port: number): Promise<{ client: StarttlsClient; greeting: Reply }> {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    const client = new StarttlsClient(socket);
    return { client, greeting: await client.next() };
  }

  get encrypted(): boolean {
    return this.socket instanceof tls.TLSSocket && this.socket.encrypted;
  }

  get authorized(): boolean {
    return this.socket instanceof tls.TLSSocket && this.socket.authorized;
  }

  private listen(socket: net.Socket | tls.TLSSocket): void {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      let at: number;
      while ((at = this.buffer.indexOf("\r\n")) >= 0) {
        const line = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 2);
        this.pending.push(line);
        if (/^\d{3} /.test(line) || /^\d{3}$/.test(line)) {
          const lines = this.pending.map((l) => l.slice(4));
          this.pending = [];
          this.waiters.shift()?.({ code: Number(line.slice(0, 3)), lines });
        }
      }
    });
  }

  private next(): Promise<Reply> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  command(line: string): Promise<Reply> {
    const reply = this.next();
    this.socket.write(`${line}\r\n`);
    return reply;
  }

  /** Upgrades the connection (after a 220 to STARTTLS), trusting only `ca` for `localhost`. */
  async upgrade(ca: Buffer): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners("data");
    const secure = tls.connect({ socket: plain, servername: "localhost", ca, rejectUnauthorized: true });
    await new Promise<void>((resolve, reject) => {
      secure.once("secureConnect", () => resolve());
      secure.once("error", reject);
    });
    this.socket = secure;
    this.buffer = "";
    this.listen(secure);
  }

  async data(message: string): Promise<Reply> {
    const start = await this.command("DATA");
    if (start.code !== 354) return start;
    const reply = this.next();
    this.socket.write(`${message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..")}\r\n.\r\n`);
    return reply;
  }

  async quit(): Promise<void> {
    await this.command("QUIT").catch(() => undefined);
    this.socket.end();
  }
}

/** The SMTP port of the shared system offers STARTTLS with the inbox's test-only certificate. */
describe("mail delivered over STARTTLS through the shared system's SMTP port", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  const ca = readFileSync(path.join(SMTP_TLS_FIXTURES, "smtp-test.crt"));

  it("when a sender upgrades with STARTTLS, then the certificate verifies, the session is encrypted and the mail is stored and listed", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `tls-${randomBytes(3).toString("hex")}`);
    const { client, greeting } = await StarttlsClient.connect(system.ports.smtp);
    try {
      expect(greeting.code).toBe(220);
      const ehlo = await client.command("EHLO sender.example.org");
      expect(ehlo.code).toBe(250);
      expect(ehlo.lines).toEqual(expect.arrayContaining(["STARTTLS", expect.stringMatching(/^SIZE \d+$/)]));
      expect((await client.command("STARTTLS")).code).toBe(220);
      await client.upgrade(ca);
      expect(client.encrypted).toBe(true);
      expect(client.authorized).toBe(true);
      const secureEhlo = await client.command("EHLO sender.example.org");
      expect(secureEhlo.code).toBe(250);
      expect(secureEhlo.lines).not.toContain("STARTTLS");
      expect((await client.command("MAIL FROM:<sender@example.org>")).code).toBe(250);
      expect((await client.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
      const subject = `over tls ${randomBytes(3).toString("hex")}`;
      const sent = await client.data(buildMessage({ from: "sender@example.org", to: inbox.full_address, subject, text: "sealed" }));
      expect(sent.code).toBe(250);
      const listed = await waitFor(
        async () => {
          const res = await api<{ data: Array<{ subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token });
          return res.body.data.find((e) => e.subject === subject);
        },
        { what: "the mail sent over TLS" },
      );
      expect(listed).toMatchObject({ subject, from_address: "sender@example.org" });
    } finally {
      await client.quit();
    }
  });

  it("when a sender does not upgrade, then plain delivery is still accepted (STARTTLS is offered, not required)", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `plain-${randomBytes(3).toString("hex")}`);
    const { client } = await StarttlsClient.connect(system.ports.smtp);
    try {
      await client.command("EHLO sender.example.org");
      expect((await client.command("MAIL FROM:<sender@example.org>")).code).toBe(250);
      expect((await client.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
      const sent = await client.data(buildMessage({ from: "sender@example.org", to: inbox.full_address, subject: "plain", text: "x" }));
      expect(sent.code).toBe(250);
    } finally {
      await client.quit();
    }
  });
});
