import { createServer, type IncomingHttpHeaders } from "node:http";
import net from "node:net";
import { parseAllowlist, pinTarget as kitPin, type OutboundPolicy } from "@burnbox/service-kit/security";
import { headBucket } from "./s3-probe";
import { verifySmtp } from "./smtp-probe";
import { probeSmtp, probeStorage, type ProbeEnv } from "../domain/infra-probe/infra-probe";

/** A policy whose resolver answers `addresses` for every name. */
const policyOf = (resolve: () => Promise<string[]>, allowed: string[] = []): OutboundPolicy => ({
  resolve: async () => (await resolve()).map((address) => ({ address, family: net.isIP(address) === 6 ? 6 : 4 })),
  allowed: parseAllowlist(allowed),
});
/** pinTarget with a resolver answering plain addresses. */
const pinWith = (host: string, p: { resolve: () => Promise<string[]>; allowed: ReturnType<typeof parseAllowlist> }) =>
  kitPin(host, { resolve: policyOf(p.resolve).resolve, allowed: p.allowed });

const env = (over: { resolve?: () => Promise<string[]>; timeoutMs?: number } = {}): ProbeEnv => ({
  policy: policyOf(over.resolve ?? (() => Promise.resolve(["93.184.215.14"]))),
  timeoutMs: over.timeoutMs ?? 2000,
});

/** A tiny SMTP server on 127.0.0.1 that speaks just enough for the probe, recording the commands. */
async function smtpServer(opts: { auth?: boolean; domain?: string } = {}) {
  const commands: string[] = [];
  const server = net.createServer((s) => {
    s.write("220 test ESMTP\r\n");
    let buf = "";
    s.on("data", (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf("\r\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        commands.push(line);
        const domain = opts.domain ?? "test";
        if (line.startsWith("EHLO")) s.write(opts.auth ? `250-${domain}\r\n250 AUTH PLAIN\r\n` : `250 ${domain}\r\n`);
        else if (line.startsWith("AUTH PLAIN")) {
          const ok = Buffer.from(line.slice(11), "base64").toString() === "\0user\0secret";
          s.write(ok ? "235 ok\r\n" : "535 no\r\n");
        } else if (line === "QUIT") s.end("221 bye\r\n");
        else s.write("502 no\r\n");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as net.AddressInfo).port, commands, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("probeSmtp", () => {
  it.each(["127.0.0.1", "10.0.0.1", "169.254.169.254", "[::1]", "::ffff:127.0.0.1", "localhost", "mail.internal"])(
    "when the host is %s, then it is refused without connecting",
    async (host) => {
      const r = await probeSmtp({ host, port: 587, tls: false }, env());
      expect(r).toMatchObject({ success: false, message: "host is not allowed" });
    },
  );

  it("when a name resolves to a private address, then it is refused", async () => {
    const r = await probeSmtp(
      { host: "mail.example.com", port: 587, tls: false },
      env({ resolve: () => Promise.resolve(["192.168.1.5"]) }),
    );
    expect(r).toMatchObject({ success: false, message: "host is not allowed" });
  });

  it("when any of the resolved addresses is private, then it is refused", async () => {
    const resolve = () => Promise.resolve(["93.184.215.14", "10.1.2.3"]);
    expect(await probeSmtp({ host: "mail.example.com", port: 587, tls: false }, env({ resolve }))).toMatchObject({ success: false });
  });

  it.each([22, 80, 6379, 5432])("when the port is %d, then it is refused", async (port) => {
    const r = await probeSmtp({ host: "mail.example.com", port, tls: false }, env());
    expect(r.success).toBe(false);
    expect(r.message).toMatch(/^port not allowed/);
  });

  it("when the operator allows the loopback range, then the conversation runs against the address checked once", async () => {
    const server = await smtpServer({ auth: true });
    try {
      let lookups = 0;
      const resolve = () => {
        lookups += 1;
        return Promise.resolve(["127.0.0.1"]);
      };
      const target = await pinWith("mail.example.com", { resolve, allowed: parseAllowlist(["127.0.0.0/8"]) });
      const talk = (password: string) => verifySmtp({ target, port: server.port, tls: false, username: "user", password, timeoutMs: 2000 });
      await expect(talk("secret")).resolves.toMatch(/successful/);
      await expect(talk("wrong")).rejects.toThrow("authentication failed");
      expect(lookups).toBe(1);
      expect(server.commands).toContain("QUIT");
    } finally {
      await server.close();
    }
  });

  it("when the server's own name starts with auth., then it is not taken for the AUTH extension", async () => {
    const server = await smtpServer({ auth: true, domain: "auth.example.com" });
    try {
      const target = await pinWith("127.0.0.1", { resolve: () => Promise.resolve([]), allowed: parseAllowlist(["127.0.0.0/8"]) });
      const talk = verifySmtp({ target, port: server.port, tls: false, username: "user", password: "secret", timeoutMs: 2000 });
      await expect(talk).resolves.toMatch(/authentication successful/);
    } finally {
      await server.close();
    }
  });

  it("when the loopback range is not allowed, then the same name is refused", async () => {
    await expect(
      pinWith("mail.example.com", { resolve: () => Promise.resolve(["127.0.0.1"]), allowed: parseAllowlist([]) }),
    ).rejects.toThrow("host is not allowed");
  });

  it("when the server does not answer in time, then it is a timeout, not a hang", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const target = await pinWith("127.0.0.1", { resolve: () => Promise.resolve([]), allowed: parseAllowlist(["127.0.0.1"]) });
      const port = (silent.address() as net.AddressInfo).port;
      await expect(verifySmtp({ target, port, tls: false, timeoutMs: 200 })).rejects.toThrow("timed out");
    } finally {
      silent.close();
    }
  });
});

/** A tiny S3 stand-in on 127.0.0.1: HEAD /<bucket> answers 200 for `bucket`, 404 otherwise; records what it got. */
async function s3Server(bucket: string) {
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    res.writeHead(req.url?.replace(/\/$/, "") === `/${bucket}` ? 200 : 404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as net.AddressInfo).port, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("the libraries hold the pin", () => {
  // names under .invalid never resolve (RFC 6761): reaching the server proves the library used the pinned address
  it("when nodemailer verifies a name that resolves nowhere, then it talks to the pinned address", async () => {
    const server = await smtpServer({ auth: true });
    try {
      const target = await kitPin(
        "mail.pinned.invalid",
        policyOf(() => Promise.resolve(["127.0.0.1"]), ["127.0.0.0/8"]),
      );
      await expect(
        verifySmtp({ target, port: server.port, tls: false, username: "user", password: "secret", timeoutMs: 2000 }),
      ).resolves.toBe("SMTP connection and authentication successful");
      expect(server.commands[0]).toMatch(/^EHLO /);
    } finally {
      await server.close();
    }
  });

  it("when the AWS SDK heads a bucket on a name that resolves nowhere, then it reaches the pinned address, signed, with the name as Host", async () => {
    const s3 = await s3Server("mail");
    try {
      const target = await kitPin(
        "s3.pinned.invalid",
        policyOf(() => Promise.resolve(["127.0.0.1"]), ["127.0.0.0/8"]),
      );
      const endpoint = new URL(`http://s3.pinned.invalid:${s3.port}`);
      const check = { target, endpoint, region: "eu-west-1", timeoutMs: 2000 };
      expect(await headBucket({ ...check, bucket: "mail", accessKey: "AK", secretKey: "SK" })).toBe(200);
      expect(await headBucket({ ...check, bucket: "other" })).toBe(404);
      expect(s3.seen.map((r) => [r.method, r.url, r.headers.host])).toEqual([
        ["HEAD", "/mail/", `s3.pinned.invalid:${s3.port}`],
        ["HEAD", "/other/", `s3.pinned.invalid:${s3.port}`],
      ]);
      expect(s3.seen[0]?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AK\/\d{8}\/eu-west-1\/s3\/aws4_request/);
      expect(s3.seen[1]?.headers.authorization).toBeUndefined();
    } finally {
      await s3.close();
    }
  });

  it("when nothing listens at the pinned address, then the SDK's answer is 0 (no answer), not an exception", async () => {
    const target = await kitPin(
      "s3.pinned.invalid",
      policyOf(() => Promise.resolve(["127.0.0.1"]), ["127.0.0.0/8"]),
    );
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(
      await headBucket({
        target,
        endpoint: new URL(`http://s3.pinned.invalid:${port}`),
        bucket: "mail",
        region: "us-east-1",
        timeoutMs: 1000,
      }),
    ).toBe(0);
  });
});

describe("probeStorage", () => {
  it("when the provider is local, then nothing is connected to", async () => {
    expect(await probeStorage({ provider: "local" }, env())).toMatchObject({ success: true });
  });

  it.each(["http://127.0.0.1:9000", "https://10.0.0.1", "http://metadata.internal", "https://[::1]"])(
    "when the endpoint is %s, then it is refused",
    async (endpoint) => {
      expect(await probeStorage({ provider: "s3", endpoint, bucket: "mail" }, env())).toMatchObject({
        success: false,
        message: "host is not allowed",
      });
    },
  );

  it("when the port is not an object-store port, then it is refused", async () => {
    const r = await probeStorage({ provider: "s3", endpoint: "https://s3.example.com:6379", bucket: "mail" }, env());
    expect(r.message).toMatch(/^port not allowed/);
  });

  it("when the bucket is missing or malformed, then it is a failure, not an exception", async () => {
    expect(await probeStorage({ provider: "s3", endpoint: "https://s3.example.com" }, env())).toMatchObject({ success: false });
    expect(await probeStorage({ provider: "s3", endpoint: "https://s3.example.com", bucket: "../x" }, env())).toMatchObject({
      success: false,
    });
  });
});
