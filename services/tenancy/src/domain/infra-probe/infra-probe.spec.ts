import net from "node:net";
import { parseAllowlist } from "@burnbox/service-kit";
import { probeSmtp, probeStorage, type ProbeEnv } from "./infra-probe";
import { signHeadBucket } from "./s3-probe";
import { smtpConversation } from "./smtp-probe";
import { pinTarget } from "./target";

const env = (over: Partial<ProbeEnv> = {}): ProbeEnv => ({
  resolve: () => Promise.resolve(["93.184.215.14"]),
  allowed: parseAllowlist([]),
  timeoutMs: 2000,
  ...over,
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
      const target = await pinTarget("mail.example.com", { resolve, allowed: parseAllowlist(["127.0.0.0/8"]) });
      const talk = (password: string) =>
        smtpConversation({ target, port: server.port, tls: false, username: "user", password, timeoutMs: 2000 });
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
      const target = await pinTarget("127.0.0.1", { resolve: () => Promise.resolve([]), allowed: parseAllowlist(["127.0.0.0/8"]) });
      const talk = smtpConversation({ target, port: server.port, tls: false, username: "user", password: "secret", timeoutMs: 2000 });
      await expect(talk).resolves.toMatch(/authentication successful/);
    } finally {
      await server.close();
    }
  });

  it("when the loopback range is not allowed, then the same name is refused", async () => {
    await expect(
      pinTarget("mail.example.com", { resolve: () => Promise.resolve(["127.0.0.1"]), allowed: parseAllowlist([]) }),
    ).rejects.toThrow("host is not allowed");
  });

  it("when the server does not answer in time, then it is a timeout, not a hang", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const target = await pinTarget("127.0.0.1", { resolve: () => Promise.resolve([]), allowed: parseAllowlist(["127.0.0.1"]) });
      const port = (silent.address() as net.AddressInfo).port;
      await expect(smtpConversation({ target, port, tls: false, timeoutMs: 200 })).rejects.toThrow("timed out");
    } finally {
      silent.close();
    }
  });
});

describe("signHeadBucket", () => {
  it("when signing, then the signature is the one the AWS SDK's own SignatureV4 computes for the same request", () => {
    // vector produced with @smithy/signature-v4 5.7.5 (HEAD https://s3.example.com:9000/my-bucket, empty payload)
    const h = signHeadBucket({
      hostHeader: "s3.example.com:9000",
      bucket: "my-bucket",
      region: "eu-west-1",
      accessKey: "AK",
      secretKey: "SK",
      now: new Date("2026-01-02T03:04:05Z"),
    });
    expect(h.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AK/20260102/eu-west-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=5d9cf830c7f104d46fb527ab70790315f8f8b6a67b429a0c98a37c90a154f944",
    );
  });

  it("when signing, then the signature is deterministic for the same inputs and changes with the secret", () => {
    const base = {
      hostHeader: "s3.example.com",
      bucket: "b1",
      region: "us-east-1",
      accessKey: "AK",
      now: new Date("2026-01-02T03:04:05Z"),
    };
    const a = signHeadBucket({ ...base, secretKey: "s1" });
    expect(a["x-amz-date"]).toBe("20260102T030405Z");
    expect(a.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AK\/20260102\/us-east-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(signHeadBucket({ ...base, secretKey: "s1" }).authorization).toBe(a.authorization);
    expect(signHeadBucket({ ...base, secretKey: "s2" }).authorization).not.toBe(a.authorization);
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
