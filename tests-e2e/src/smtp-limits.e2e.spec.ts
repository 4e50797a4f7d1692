import net from "node:net";
import { apiClient, buildMessage, SmtpSession } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

/** The shared system's `smtp.command_timeout`, `smtp.data_timeout` and `smtp.session_timeout` (shared-system.ts), in ms. */
const COMMAND_TIMEOUT_MS = 2_000;
const DATA_TIMEOUT_MS = 3_000;
const SESSION_TIMEOUT_MS = 5_000;

/** A raw SMTP connection: every reply as it comes, and the moment the server closes. */
class RawSmtp {
  readonly replies: string[] = [];
  private buffer = "";
  private waiters: Array<{ code: number; resolve: (line: string) => void }> = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf("\r\n")) >= 0) {
        const line = this.buffer.slice(0, i);
        this.buffer = this.buffer.slice(i + 2);
        if (/^\d{3}-/.test(line)) continue; // a multi-line reply's first lines
        this.replies.push(line);
        const code = Number(line.slice(0, 3));
        const w = this.waiters.findIndex((x) => x.code === code);
        if (w >= 0) this.waiters.splice(w, 1)[0]?.resolve(line);
      }
    });
    socket.on("error", () => undefined);
    this.closed = new Promise((r) => socket.once("close", () => r()));
  }

  static async open(port: number): Promise<RawSmtp> {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    const s = new RawSmtp(socket);
    await s.expect(220);
    return s;
  }

  /** The next reply with this code (or the one already received). */
  expect(code: number): Promise<string> {
    const seen = this.replies.find((l) => l.startsWith(String(code)));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ code, resolve }));
  }

  async command(line: string, code: number): Promise<string> {
    this.replies.length = 0;
    const reply = this.expect(code);
    this.socket.write(`${line}\r\n`);
    return reply;
  }

  write(bytes: string): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  end(): void {
    this.socket.destroy();
  }
}

/**
 * The intake's limits (issue 24, part 4): what its parser refuses is refused for good (5xx, so
 * a sender does not retry it for days), and a sender cannot hold a connection for ever by
 * trickling bytes (each resets the idle timer): DATA and the session have deadlines (421).
 */
describe("SMTP intake limits", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let address = "";

  beforeAll(async () => {
    const world = await teamWithDomain(api);
    address = (await createInbox(api, world.owner.token, world.assignmentId, "limits")).full_address;
  });

  async function deliver(message: string) {
    const s = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await s.command("MAIL FROM:<sender@example.org>")).code).toBe(250);
      expect((await s.command(`RCPT TO:<${address}>`)).code).toBe(250);
      return await s.data(message);
    } finally {
      await s.quit();
    }
  }

  const head = (subject: string) =>
    ["From: sender@example.org", `To: ${address}`, `Subject: ${subject}`, "MIME-Version: 1.0"].join("\r\n") + "\r\n";

  it("when a message has 10,000 sibling MIME parts, then it is refused for good (554) with the reason", async () => {
    let body = `${head("siblings")}Content-Type: multipart/mixed; boundary="sib"\r\n\r\n`;
    for (let i = 0; i < 10_000; i++) body += "--sib\r\nContent-Type: text/plain\r\n\r\nx\r\n";
    body += "--sib--\r\n";
    const reply = await deliver(body);
    expect(reply).toEqual({ code: 554, text: expect.stringMatching(/^5\.6\.0 .*MIME parts/) });
  });

  it("when a message has 10,000 nested MIME parts, then it is refused for good (554) with the reason", async () => {
    let body = head("nested");
    for (let i = 0; i < 10_000; i++) body += `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n`;
    body += "Content-Type: text/plain\r\n\r\ndeep\r\n";
    for (let i = 9_999; i >= 0; i--) body += `--n${i}--\r\n`;
    const reply = await deliver(body);
    expect(reply).toEqual({ code: 554, text: expect.stringMatching(/^5\.6\.0 .*MIME parts/) });
  });

  it("when a message has a 1 MB header line, then it is refused for good (552) with the reason", async () => {
    const message = buildMessage({ from: "sender@example.org", to: address, subject: "big header", text: "x" }).replace(
      "MIME-Version: 1.0",
      `X-Padding: ${"a".repeat(1024 * 1024)}\r\nMIME-Version: 1.0`,
    );
    const reply = await deliver(message);
    expect(reply).toEqual({ code: 552, text: expect.stringMatching(/^5\.3\.4 .*header/) });
  });

  it("when a sender trickles its DATA a byte at a time, then it is answered 421 and closed at the DATA deadline", async () => {
    const s = await RawSmtp.open(system.ports.smtp);
    try {
      await s.command("EHLO trickle.test", 250);
      await s.command("MAIL FROM:<sender@example.org>", 250);
      await s.command(`RCPT TO:<${address}>`, 250);
      await s.command("DATA", 354);
      const started = Date.now();
      // a byte every 100 ms: well inside the idle timeout, so only the DATA deadline ends it
      const trickle = setInterval(() => s.write("a"), 100);
      try {
        const reply = await s.expect(421);
        await s.closed;
        const took = Date.now() - started;
        expect(reply).toMatch(/^421 4\.4\.2 /);
        expect(took).toBeGreaterThanOrEqual(DATA_TIMEOUT_MS - 100);
        expect(took).toBeLessThan(SESSION_TIMEOUT_MS);
      } finally {
        clearInterval(trickle);
      }
    } finally {
      s.end();
    }
  }, 20_000);

  it("when a client drips a command a byte a second, then it is answered 421 and closed at the command line's deadline", async () => {
    const s = await RawSmtp.open(system.ports.smtp);
    try {
      await s.command("EHLO drip.test", 250);
      const line = "MAIL FROM:<sender@example.org>\r\n";
      let sent = 0;
      const started = Date.now();
      s.write(line[sent++]!);
      // a byte a second: well inside the idle timeout, and the line never ends before the deadline
      const drip = setInterval(() => s.write(line[sent++ % line.length]!), 1_000);
      try {
        const reply = await s.expect(421);
        await s.closed;
        const took = Date.now() - started;
        expect(reply).toMatch(/^421 4\.4\.2 Command line not completed in time/);
        expect(took).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 100);
        expect(took).toBeLessThan(COMMAND_TIMEOUT_MS + 1_500);
      } finally {
        clearInterval(drip);
      }
    } finally {
      s.end();
    }
  }, 20_000);

  it("when a client keeps its session busy with NOOPs, then it is answered 421 and closed at the session's deadline", async () => {
    const opened = Date.now();
    const s = await RawSmtp.open(system.ports.smtp);
    try {
      await s.command("EHLO busy.test", 250);
      const busy = setInterval(() => s.write("NOOP\r\n"), 200);
      try {
        const reply = await s.expect(421);
        await s.closed;
        expect(reply).toMatch(/^421 4\.4\.2 /);
        expect(Date.now() - opened).toBeGreaterThanOrEqual(SESSION_TIMEOUT_MS - 100);
      } finally {
        clearInterval(busy);
      }
    } finally {
      s.end();
    }
  }, 20_000);
});
