import { randomUUID, X509Certificate } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";
import { createLogger, type Infra } from "@burnbox/service-kit/runtime";
import { TEST_INTERNAL_SECRET, waitFor, type TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import { loadInboxConfig, type InboxConfig } from "../src/config";
import { createTestInbox, startInboxTestService } from "./inbox-test-service";
import { proxyV1, proxyV2 } from "./proxy-header";

const DOMAIN = "mail.smtp-edge.example";
const CERT = path.join(__dirname, "fixtures", "smtp-test.crt");
const KEY = path.join(__dirname, "fixtures", "smtp-test.key");
/** The pair a renewal puts in place of CERT and KEY. */
const RENEWED_CERT = path.join(__dirname, "fixtures", "smtp-renewed.crt");
const RENEWED_KEY = path.join(__dirname, "fixtures", "smtp-renewed.key");
const fingerprintOf = (file: string) => new X509Certificate(readFileSync(file)).fingerprint256;
/** The load balancer of these tests: the loopback address the runner connects from. */
const BALANCER = "127.0.0.1";
/** Another peer on the same machine (Linux answers the whole of 127.0.0.0/8 on loopback). */
const OUTSIDER = "127.0.0.2";

/** A raw SMTP client: every reply line, the server's unprompted ones too; it can open with bytes of its own and upgrade with STARTTLS. */
class Client {
  private buffer = "";
  private waiters: Array<(lines: string[]) => void> = [];
  private pending: string[] = [];
  readonly closed: Promise<void>;

  private constructor(private socket: net.Socket | tls.TLSSocket) {
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
    this.listen(socket);
  }

  private listen(socket: net.Socket | tls.TLSSocket): void {
    socket.setEncoding("utf8");
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

  /** Connects from `from` (the balancer's address unless given). */
  static async open(port: number, from = BALANCER): Promise<Client> {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress: from });
    socket.setNoDelay(true);
    socket.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    return new Client(socket);
  }

  /** The next reply, or null when the server closes first. */
  replyOrClose(): Promise<string[] | null> {
    return Promise.race([this.reply(), this.closed.then(() => null)]);
  }

  /** Writes bytes as they are (a PROXY header), resolved once handed to the kernel. */
  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve) => this.socket.write(bytes, () => resolve()));
  }

  reply(): Promise<string[]> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  command(line: string): Promise<string[]> {
    const p = this.reply();
    this.socket.write(`${line}\r\n`);
    return p;
  }

  /** After a 220 to STARTTLS: the handshake, trusting `ca` only; resolves with the certificate the server showed. */
  async upgrade(ca: Buffer | Buffer[]): Promise<tls.PeerCertificate> {
    const plain = this.socket;
    plain.removeAllListeners("data");
    const secure = tls.connect({ socket: plain, servername: "localhost", ca, rejectUnauthorized: true });
    await new Promise<void>((resolve, reject) => secure.once("secureConnect", resolve).once("error", reject));
    this.socket = secure;
    this.buffer = "";
    this.listen(secure);
    return secure.getPeerCertificate();
  }

  async send(from: string, to: string, subject: string): Promise<string[]> {
    await this.command("EHLO client.example");
    await this.command(`MAIL FROM:<${from}>`);
    await this.command(`RCPT TO:<${to}>`);
    await this.command("DATA");
    return this.command(`From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\nhello\r\n.`);
  }

  end(): void {
    this.socket.destroy();
  }
}

describe("the SMTP intake behind a load balancer (PROXY protocol)", () => {
  let t: TestService<InboxConfig, RunningService>;
  const running: RunningIntake[] = [];
  const clients: Client[] = [];
  const orgId = randomUUID();
  const teamId = randomUUID();

  beforeAll(async () => {
    t = await startInboxTestService("smtpedge");
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) c.end();
    await Promise.all(running.splice(0).map((i) => i.stop()));
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** An intake of its own with these SMTP settings (the other settings as the API's), logging to `logger` when given. */
  async function intakeWith(smtp: Record<string, unknown>, logger?: Infra["logger"]): Promise<RunningIntake> {
    const config = loadInboxConfig({}, { ...t.config, http: { port: 0, host: "127.0.0.1" }, smtp: { ...t.config.smtp, ...smtp } });
    const intake = await startIntake(config, logger ? { ...t.infra, logger } : t.infra);
    running.push(intake);
    return intake;
  }
  const behindBalancer = (more: Record<string, unknown> = {}) =>
    intakeWith({ proxy_protocol: { trusted_cidrs: [`${BALANCER}/32`], untrusted: "refuse" }, ...more });
  /** A connection from `from` that opens with `first` (a balancer's header), and the first reply, or null when closed without one. */
  async function connect(port: number, opts: { from?: string; first?: Buffer } = {}) {
    const client = await Client.open(port, opts.from);
    clients.push(client);
    const greeting = client.replyOrClose();
    if (opts.first) await client.write(opts.first);
    return { client, greeting: await greeting };
  }
  /**
   * The transcript stored with the inbox's one email: in its row, and no longer in `email_transcripts`
   * (the contract step: the previous release already reads the row first).
   */
  async function storedTranscript(inboxId: string): Promise<{ ip: string; tls: boolean }> {
    const { rows } = await t.infra.pool!.query<{ transcript: { ip: string; tls: boolean }; previous: unknown }>(
      `SELECT e.transcript, t.email_id AS previous FROM emails e LEFT JOIN email_transcripts t ON t.email_id = e.id
       WHERE e.inbox_id = $1 AND e.transcript IS NOT NULL`,
      [inboxId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.previous).toBeNull();
    return rows[0]!.transcript;
  }

  it("when the balancer opens with a version 1 or 2 header, then the session is the client's: its mail's transcript and the per-IP limits see the client", async () => {
    const intake = await behindBalancer({ max_connections_per_ip: 1 });
    const inbox = await createTestInbox(t.service.deps, { orgId, teamId }, { prefix: "proxied", domain: DOMAIN });
    const v1 = await connect(intake.smtpPort, { first: proxyV1("203.0.113.7", 40001) });
    expect(v1.greeting?.[0]).toMatch(/^220 /);
    expect((await v1.client.send("sender@example.org", inbox.fullAddress, "through the balancer"))[0]).toMatch(/^250 /);
    expect(await storedTranscript(inbox.id)).toMatchObject({ ip: "203.0.113.7", tls: false });

    // one connection per client IP: the same client again is over its limit, another client is not
    const again = await connect(intake.smtpPort, { first: proxyV2("203.0.113.7", 40002) });
    expect(again.greeting?.[0]).toMatch(/^421 4\.7\.0 Too many connections/);
    const other = await connect(intake.smtpPort, { first: proxyV2("198.51.100.9", 40003) });
    expect(other.greeting?.[0]).toMatch(/^220 /);
    const v6 = await connect(intake.smtpPort, { first: proxyV2("2001:db8::7", 40004) });
    expect(v6.greeting?.[0]).toMatch(/^220 /);
  });

  it("when the header comes in pieces, then the session starts once it is whole", async () => {
    const intake = await behindBalancer();
    const header = proxyV2("203.0.113.8", 40010, { tlvs: Buffer.from([0x04, 0x00, 0x02, 0xab, 0xcd]) });
    const client = await Client.open(intake.smtpPort);
    clients.push(client);
    const greeting = client.replyOrClose();
    for (let i = 0; i < header.length; i += 7) await client.write(header.subarray(i, i + 7));
    expect((await greeting)?.[0]).toMatch(/^220 /);
    expect((await client.command("EHLO client.example"))[0]).toMatch(/^250/);
  });

  it("when the balancer sends a LOCAL header (its health check), then the session is the balancer's own", async () => {
    const intake = await behindBalancer({ max_connections_per_ip: 1 });
    const check = await connect(intake.smtpPort, { first: proxyV2("203.0.113.9", 1, { local: true }) });
    expect(check.greeting?.[0]).toMatch(/^220 /);
    // the balancer's address holds its one connection; the client named in the LOCAL header was not counted
    const second = await connect(intake.smtpPort, { first: proxyV1("127.0.0.1", 2, "127.0.0.1") });
    expect(second.greeting?.[0]).toMatch(/^421 4\.7\.0 Too many connections/);
    expect((await connect(intake.smtpPort, { first: proxyV1("203.0.113.9", 3) })).greeting?.[0]).toMatch(/^220 /);
  });

  it("when a trusted peer opens without a header (SMTP, junk) or says nothing, then it is closed without a reply", async () => {
    const intake = await behindBalancer({ idle_timeout: "300ms" });
    for (const first of [
      Buffer.from("EHLO client.example\r\n"),
      Buffer.from("PROXY TCP4 203.0.113.7 nowhere 1 25\r\n"),
      Buffer.from([0x16, 3, 1, 0, 5]),
    ]) {
      const { client, greeting } = await connect(intake.smtpPort, { first });
      expect(greeting).toBeNull();
      await client.closed;
    }
    const silent = await connect(intake.smtpPort);
    expect(silent.greeting).toBeNull();
  });

  it("when a peer outside the trusted ranges connects and the setting is refuse, then it gets 421 and is closed, with or without a header", async () => {
    const intake = await behindBalancer();
    for (const first of [undefined, proxyV1("203.0.113.7", 1), proxyV2("203.0.113.7", 1)]) {
      const { client, greeting } = await connect(intake.smtpPort, { from: OUTSIDER, first });
      expect(greeting).toEqual(["421 4.7.0 Connections are accepted through the load balancer only"]);
      await client.closed;
    }
  });

  it("when a peer outside the trusted ranges connects and the setting is plain, then its session is its own and a PROXY line from it is not believed", async () => {
    const intake = await intakeWith({ proxy_protocol: { trusted_cidrs: [`${BALANCER}/32`], untrusted: "plain" } });
    const inbox = await createTestInbox(t.service.deps, { orgId, teamId }, { prefix: "outsider", domain: DOMAIN });
    const { client, greeting } = await connect(intake.smtpPort, { from: OUTSIDER });
    expect(greeting?.[0]).toMatch(/^220 /);
    expect((await client.command("PROXY TCP4 203.0.113.7 192.0.2.25 40000 25"))[0]).toMatch(/^500 /);
    expect((await client.send("sender@example.org", inbox.fullAddress, "from the outsider"))[0]).toMatch(/^250 /);
    expect(await storedTranscript(inbox.id)).toMatchObject({ ip: OUTSIDER });
    // a header as the very first bytes is not read either: the client spoke before the greeting
    const early = await connect(intake.smtpPort, { from: OUTSIDER, first: proxyV2("203.0.113.7", 1) });
    expect(early.greeting?.[0]).toMatch(/^421 .*talk too soon/);
  });

  it("when the client upgrades with STARTTLS after the balancer's header, then the session is encrypted and still the client's", async () => {
    const intake = await behindBalancer({ tls_cert: CERT, tls_key: KEY });
    const inbox = await createTestInbox(t.service.deps, { orgId, teamId }, { prefix: "proxiedtls", domain: DOMAIN });
    const { client, greeting } = await connect(intake.smtpPort, { first: proxyV2("2001:db8::42", 40020) });
    expect(greeting?.[0]).toMatch(/^220 /);
    await client.command("EHLO client.example");
    expect((await client.command("STARTTLS"))[0]).toMatch(/^220 /);
    await client.upgrade(readFileSync(CERT));
    expect((await client.send("sender@example.org", inbox.fullAddress, "sealed through the balancer"))[0]).toMatch(/^250 /);
    expect(await storedTranscript(inbox.id)).toMatchObject({ ip: "2001:db8::42", tls: true });
  });

  it("when smtp.proxy_protocol.trusted_cidrs holds something that is not an IP or a range, then the configuration is refused naming it", () => {
    const env = { BB_INTERNAL_SECRET: TEST_INTERNAL_SECRET };
    expect(() => loadInboxConfig({ ...env, BB_SMTP_PROXY_PROTOCOL_TRUSTED_CIDRS: "10.0.0.0/8, lb.example" })).toThrow(
      /smtp\.proxy_protocol\.trusted_cidrs.*lb\.example/s,
    );
    expect(() => loadInboxConfig({ ...env, BB_SMTP_PROXY_PROTOCOL_UNTRUSTED: "believe" })).toThrow(/smtp\.proxy_protocol\.untrusted/);
    const loaded = loadInboxConfig({ ...env, BB_SMTP_PROXY_PROTOCOL_TRUSTED_CIDRS: "10.0.0.0/8, fd00::/8" });
    expect(loaded.smtp.proxy_protocol).toEqual({ trusted_cidrs: ["10.0.0.0/8", "fd00::/8"], untrusted: "refuse" });
  });

  describe("STARTTLS certificate renewal", () => {
    const dirs: string[] = [];
    afterAll(() => {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });
    const scratch = () => {
      const dir = mkdtempSync(path.join(tmpdir(), "bb-smtp-cert-"));
      dirs.push(dir);
      return dir;
    };
    /** Replaces `target` whole, as `mv` and most tools do: written beside it, then renamed over it. */
    const replace = (target: string, from: string) => {
      writeFileSync(`${target}.new`, readFileSync(from));
      renameSync(`${target}.new`, target);
    };
    /** The log lines of an intake, to wait on what it reports. */
    const recorded = () => {
      const lines: string[] = [];
      const logger = createLogger({ service: "smtp-edge-test", level: "info", destination: { write: (l: string) => void lines.push(l) } });
      return { logger, lines, has: (msg: string) => lines.filter((l) => l.includes(`"msg":"${msg}"`)).length };
    };
    /** The fingerprint of the certificate a fresh STARTTLS is shown (either test certificate is trusted). */
    async function certificateShown(port: number): Promise<string> {
      const client = await Client.open(port);
      clients.push(client);
      await client.reply();
      await client.command("EHLO client.example");
      expect((await client.command("STARTTLS"))[0]).toMatch(/^220 /);
      const shown = await client.upgrade([readFileSync(CERT), readFileSync(RENEWED_CERT)]);
      client.end();
      return shown.fingerprint256;
    }
    const newCertificate = (port: number) =>
      waitFor(async () => (await certificateShown(port)) === fingerprintOf(RENEWED_CERT), { what: "the renewed certificate on STARTTLS" });

    it("when the files are replaced, then the next STARTTLS shows the new certificate without a restart, and a session encrypted before goes on", async () => {
      const dir = scratch();
      const cert = path.join(dir, "tls.crt");
      const key = path.join(dir, "tls.key");
      copyFileSync(CERT, cert);
      copyFileSync(KEY, key);
      const intake = await intakeWith({ tls_cert: cert, tls_key: key });
      const target = await createTestInbox(t.service.deps, { orgId, teamId }, { prefix: "renewal", domain: DOMAIN });
      expect(await certificateShown(intake.smtpPort)).toBe(fingerprintOf(CERT));
      const before = await Client.open(intake.smtpPort);
      clients.push(before);
      await before.reply();
      await before.command("EHLO client.example");
      await before.command("STARTTLS");
      await before.upgrade(readFileSync(CERT));

      replace(key, RENEWED_KEY);
      replace(cert, RENEWED_CERT);
      await newCertificate(intake.smtpPort);
      expect((await before.send("sender@example.org", target.fullAddress, "encrypted before the renewal"))[0]).toMatch(/^250 /);
    });

    it("when cert-manager renews a Secret mounted as a volume (its ..data symlink swapped), then the next STARTTLS shows the new certificate", async () => {
      // the kubelet's layout: tls.crt -> ..data/tls.crt, ..data -> ..<timestamp>/, swapped by one rename
      const dir = scratch();
      const version = (name: string, crt: string, k: string) => {
        mkdirSync(path.join(dir, name));
        copyFileSync(crt, path.join(dir, name, "tls.crt"));
        copyFileSync(k, path.join(dir, name, "tls.key"));
      };
      version("..2026_12_01_00_00_00.1", CERT, KEY);
      symlinkSync("..2026_12_01_00_00_00.1", path.join(dir, "..data"));
      symlinkSync("..data/tls.crt", path.join(dir, "tls.crt"));
      symlinkSync("..data/tls.key", path.join(dir, "tls.key"));
      const intake = await intakeWith({ tls_cert: path.join(dir, "tls.crt"), tls_key: path.join(dir, "tls.key") });
      expect(await certificateShown(intake.smtpPort)).toBe(fingerprintOf(CERT));

      version("..2026_12_02_00_00_00.2", RENEWED_CERT, RENEWED_KEY);
      symlinkSync("..2026_12_02_00_00_00.2", path.join(dir, "..data_tmp"));
      renameSync(path.join(dir, "..data_tmp"), path.join(dir, "..data"));
      rmSync(path.join(dir, "..2026_12_01_00_00_00.1"), { recursive: true });
      await newCertificate(intake.smtpPort);
    });

    it("when a renewal is half written (a certificate without its key), then the certificate in use stays until the pair is whole", async () => {
      const dir = scratch();
      const cert = path.join(dir, "tls.crt");
      const key = path.join(dir, "tls.key");
      copyFileSync(CERT, cert);
      copyFileSync(KEY, key);
      const log = recorded();
      const intake = await intakeWith({ tls_cert: cert, tls_key: key }, log.logger);

      replace(cert, RENEWED_CERT);
      await waitFor(() => log.has("SMTP STARTTLS certificate not reloaded; the one in use stays") > 0, { what: "the refused reload" });
      expect(await certificateShown(intake.smtpPort)).toBe(fingerprintOf(CERT));
      replace(key, RENEWED_KEY);
      await newCertificate(intake.smtpPort);
      expect(log.has("SMTP STARTTLS certificate reloaded")).toBe(1);
      const reloaded = JSON.parse(log.lines.find((l) => l.includes("certificate reloaded")) ?? "{}") as {
        certificate?: { fingerprint256: string };
        previous?: string;
      };
      expect(reloaded).toMatchObject({ certificate: { fingerprint256: fingerprintOf(RENEWED_CERT) }, previous: fingerprintOf(CERT) });
    });
  });
});
