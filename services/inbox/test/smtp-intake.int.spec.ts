import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import nodemailer from "nodemailer";
import type { TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import { loadInboxConfig, type InboxConfig } from "../src/config";
import { createTestInbox, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.smtp-test.example";
const CERT = path.join(__dirname, "fixtures", "smtp-test.crt");
const KEY = path.join(__dirname, "fixtures", "smtp-test.key");

/** A raw SMTP client that sees every reply line, including a server's unprompted 421. */
class RawSmtp {
  private buffer = "";
  private waiters: Array<(lines: string[]) => void> = [];
  private pending: string[] = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding("utf8");
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf("\r\n")) >= 0) {
        const line = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + 2);
        this.pending.push(line);
        if (/^\d{3} /.test(line)) this.waiters.shift()?.(this.pending.splice(0));
      }
    });
  }

  /** Connects and returns the client with the server's first reply (the greeting, or a refusal). */
  static async connect(port: number): Promise<{ smtp: RawSmtp; greeting: string[] }> {
    const socket = net.connect(port, "127.0.0.1");
    const smtp = new RawSmtp(socket);
    const greeting = await smtp.reply();
    return { smtp, greeting };
  }

  /** The next complete (possibly multi-line) reply. */
  reply(): Promise<string[]> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  command(line: string): Promise<string[]> {
    const p = this.reply();
    this.socket.write(`${line}\r\n`);
    return p;
  }

  end(): void {
    this.socket.destroy();
  }
}

describe("SMTP intake towards real mail servers", () => {
  let t: TestService<InboxConfig, RunningService>;
  const running: RunningIntake[] = [];
  const orgId = randomUUID();
  const teamId = randomUUID();

  beforeAll(async () => {
    t = await startInboxTestService("smtp");
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((i) => i.stop()));
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** An intake of its own with these SMTP settings (the other settings as the API's). */
  async function intakeWith(smtp: Record<string, unknown>): Promise<RunningIntake> {
    const config = loadInboxConfig({}, { ...t.config, http: { port: 0, host: "127.0.0.1" }, smtp: { ...t.config.smtp, ...smtp } });
    const intake = await startIntake(config, t.infra);
    running.push(intake);
    return intake;
  }

  /** An active inbox, written directly: these tests are about the SMTP side only. */
  const inbox = (deps: RunningService["deps"]) => createTestInbox(deps, { orgId, teamId }, { prefix: "tls", domain: DOMAIN });

  it("when a client says EHLO, then SIZE is advertised with the limit, and STARTTLS only when a certificate is configured", async () => {
    const plain = await intakeWith({ max_message_bytes: 1_048_576 });
    const a = await RawSmtp.connect(plain.smtpPort);
    const ehloPlain = await a.smtp.command("EHLO client.example");
    a.smtp.end();
    expect(ehloPlain.some((l) => /^250[- ]SIZE 1048576$/.test(l))).toBe(true);
    expect(ehloPlain.some((l) => l.includes("STARTTLS"))).toBe(false);

    const secure = await intakeWith({ tls_cert: CERT, tls_key: KEY });
    const b = await RawSmtp.connect(secure.smtpPort);
    const ehloTls = await b.smtp.command("EHLO client.example");
    b.smtp.end();
    expect(ehloTls.some((l) => l.includes("STARTTLS"))).toBe(true);
  });

  it("when a client upgrades with STARTTLS (nodemailer, self-signed certificate), then the mail is delivered and stored", async () => {
    const intake = await intakeWith({ tls_cert: CERT, tls_key: KEY });
    const target = await inbox(t.service.deps);
    const mailer = nodemailer.createTransport({
      host: "127.0.0.1",
      port: intake.smtpPort,
      secure: false,
      requireTLS: true,
      tls: { ca: readFileSync(CERT), servername: "localhost" },
    });
    const info = await mailer.sendMail({ from: "sender@example.org", to: target.fullAddress, subject: "over TLS", text: "secret" });
    expect(info.accepted).toEqual([target.fullAddress]);
    const emails = await t.service.deps.data.repos.emails.list({ orgId, teamId }, { inboxId: target.id }, { skip: 0, take: 10 });
    expect(emails.map((e) => e.subject)).toEqual(["over TLS"]);
  });

  it("when an IP holds its maximum of connections, then the next is refused with 421, and accepted again once one closes", async () => {
    const intake = await intakeWith({ max_connections_per_ip: 2 });
    const first = await RawSmtp.connect(intake.smtpPort);
    const second = await RawSmtp.connect(intake.smtpPort);
    expect(first.greeting[0]).toMatch(/^220 /);
    expect(second.greeting[0]).toMatch(/^220 /);
    const third = await RawSmtp.connect(intake.smtpPort);
    expect(third.greeting[0]).toMatch(/^421 /);
    await third.smtp.closed;
    first.smtp.end();
    await first.smtp.closed;
    // the server counts the close asynchronously: retry until a connection is welcome again
    let again = await RawSmtp.connect(intake.smtpPort);
    for (let i = 0; i < 50 && !/^220 /.test(again.greeting[0] ?? ""); i++) {
      await again.smtp.closed;
      again = await RawSmtp.connect(intake.smtpPort);
    }
    expect(again.greeting[0]).toMatch(/^220 /);
    again.smtp.end();
    second.smtp.end();
  });

  it("when an IP sent its maximum of messages this minute, then the next MAIL FROM is deferred with 451", async () => {
    const intake = await intakeWith({ max_messages_per_ip_per_minute: 2 });
    const { smtp } = await RawSmtp.connect(intake.smtpPort);
    await smtp.command("EHLO client.example");
    expect((await smtp.command("MAIL FROM:<a@example.org>"))[0]).toMatch(/^250 /);
    await smtp.command("RSET");
    expect((await smtp.command("MAIL FROM:<a@example.org>"))[0]).toMatch(/^250 /);
    await smtp.command("RSET");
    expect((await smtp.command("MAIL FROM:<a@example.org>"))[0]).toMatch(/^451 /);
    smtp.end();
  });

  it("when a connection sent its maximum of messages, then the next MAIL FROM gets 421 and the connection is closed", async () => {
    const intake = await intakeWith({ max_messages_per_connection: 1 });
    const { smtp } = await RawSmtp.connect(intake.smtpPort);
    await smtp.command("EHLO client.example");
    expect((await smtp.command("MAIL FROM:<a@example.org>"))[0]).toMatch(/^250 /);
    await smtp.command("RSET");
    expect((await smtp.command("MAIL FROM:<a@example.org>"))[0]).toMatch(/^421 /);
    await smtp.closed;
  });

  it("when a client stays silent past the idle timeout, then it gets 421 and is disconnected", async () => {
    const intake = await intakeWith({ idle_timeout: "300ms" });
    const { smtp, greeting } = await RawSmtp.connect(intake.smtpPort);
    expect(greeting[0]).toMatch(/^220 /);
    const timeout = await smtp.reply();
    expect(timeout[0]).toMatch(/^421 /);
    await smtp.closed;
  });
});
