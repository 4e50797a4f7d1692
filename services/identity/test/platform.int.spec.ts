import { randomInt, randomUUID } from "node:crypto";
import net from "node:net";
import { EventType, RpcName, subjects, type DomainEvent, type SavedMailerConfig } from "@burnbox/contracts";
import { rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { SecretBox } from "@burnbox/service-kit/security";
import { makeActor, waitFor } from "@burnbox/test-kit";
import { registerUser, startIdentity } from "./support";

const KEY = "6a".repeat(32);
const admin = makeActor({ is_system_admin: true });

/** Loopback addresses the saved mailer may reach in this file (`infra.unsafe_allowed_targets`); 127.89.x.x stays refused. */
const ALLOWED_TARGETS = "127.88.0.0/16";
const loopbackIn = (prefix: string) => `${prefix}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** A mail server on `address`:2525 (an SMTP submission port) that takes AUTH PLAIN and messages, and remembers both. */
async function smtpSink(
  address = loopbackIn("127.88"),
): Promise<{ address: string; port: number; auths: string[]; messages: string[]; close(): Promise<void> }> {
  const auths: string[] = [];
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    socket.write("220 sink ESMTP\r\n");
    let buffer = "";
    let data: string[] | null = null;
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let i: number;
      while ((i = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data) {
          if (line === ".") {
            messages.push(data.join("\n"));
            data = null;
            socket.write("250 queued\r\n");
          } else data.push(line);
        } else if (/^EHLO /i.test(line)) socket.write("250-sink\r\n250 AUTH PLAIN\r\n");
        else if (/^AUTH PLAIN /i.test(line)) {
          auths.push(Buffer.from(line.slice(11), "base64").toString("utf8").split("\0").slice(1).join(":"));
          socket.write("235 ok\r\n");
        } else if (/^DATA/i.test(line)) {
          data = [];
          socket.write("354 go\r\n");
        } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
    socket.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(2525, address, () => resolve()));
  return {
    address,
    port: (server.address() as net.AddressInfo).port,
    auths,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("platform settings and the platform mailer (identity)", () => {
  let t: Awaited<ReturnType<typeof startIdentity>>;

  beforeAll(async () => {
    t = await startIdentity({ encryption: { key: KEY }, infra: { unsafe_allowed_targets: [ALLOWED_TARGETS] } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const changed = async (type: typeof EventType.mailerConfigChanged) => {
    const event: DomainEvent = {
      id: randomUUID(),
      type,
      version: 1,
      occurred_at: new Date().toISOString(),
      org_id: null,
      team_id: null,
      data: {},
    };
    await t.infra.js.publish(subjects(t.ns).event(type), JSON.stringify(event), { msgID: event.id });
  };

  it("when settings are PUT, then only the named ones change, the change is an event, and other services read them over RPC", async () => {
    // the inbox service's side of the demo: its configured demo.enabled is on
    const inbox = serveRpc(t.infra.nc, t.ns, RpcName.demoConfig, () => Promise.resolve({ enabled: true }), t.infra.logger);
    const before = await t.call<Record<string, unknown>>("GET", "/admin/platform", { actor: admin });
    expect(before.body).toEqual({
      max_sessions_per_user: 5,
      allow_registration: true,
      demo_enabled: true,
      default_inbox_ttl: "10m",
      max_inbox_ttl: "24h",
    });
    const put = await t.call("PUT", "/admin/platform", { actor: admin, body: { demo_enabled: false, default_inbox_ttl: "5m" } });
    expect(put.body).toEqual({ ...before.body, demo_enabled: false, default_inbox_ttl: "5m" });
    const next = await t.call("PUT", "/admin/platform", { actor: admin, body: { max_sessions_per_user: 7 } });
    expect(next.body).toEqual({ ...before.body, demo_enabled: false, default_inbox_ttl: "5m", max_sessions_per_user: 7 });
    expect(await rpcRequest(t.infra.nc, t.ns, RpcName.platformSettings, {})).toEqual({
      max_sessions_per_user: 7,
      allow_registration: true,
      demo_enabled: false,
      default_inbox_ttl: "5m",
      max_inbox_ttl: null,
    });
    const { rows } = await t.infra.pool!.query("SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'type' = $1", [
      EventType.platformSettingsChanged,
    ]);
    expect(rows[0]).toEqual({ n: 2 });

    const bad = await t.call("PUT", "/admin/platform", { actor: admin, body: { max_inbox_ttl: "2m" } });
    expect(bad.status).toBe(400);
    const key = makeActor({ is_system_admin: true, api_key: { id: randomUUID(), team_id: randomUUID(), scopes: ["team.view"] } });
    expect((await t.call("PUT", "/admin/platform", { actor: key, body: { demo_enabled: true } })).status).toBe(403);
    const back = await t.call("PUT", "/admin/platform", {
      actor: admin,
      body: { demo_enabled: null, default_inbox_ttl: "10m", max_sessions_per_user: 5 },
    });
    expect(back.body).toEqual(before.body);
    await inbox.stop();
    // without the inbox service, the demo in effect is unknown: 503, never a guess
    expect((await t.call("GET", "/admin/platform", { actor: admin })).status).toBe(503);
  });

  it("when registration is closed, then registering is 403", async () => {
    await t.call("PUT", "/admin/platform", { actor: admin, body: { allow_registration: false } });
    const res = await t.call("POST", "/auth/register", {
      actor: null,
      body: { email: `closed-${randomUUID()}@example.test`, password: "Correct-Horse-9-Battery", display_name: "Late" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "registration is disabled", code: "forbidden" });
    await t.call("PUT", "/admin/platform", { actor: admin, body: { allow_registration: true } });
  });

  it("when the platform mailer is saved, then account mail goes through it, authenticated with the password opened here", async () => {
    const sink = await smtpSink();
    const saved: SavedMailerConfig = {
      host: sink.address,
      port: sink.port,
      username: "mailer",
      from: "Ops <ops@example.test>",
      tls: false,
      password_sealed: new SecretBox(KEY).seal("pa55word"),
    };
    const tenancy = serveRpc(t.infra.nc, t.ns, RpcName.mailerConfig, () => Promise.resolve({ mailer: saved }), t.infra.logger);
    try {
      const user = await registerUser(t.call, `reader-${randomUUID()}@example.test`);
      await changed(EventType.mailerConfigChanged);
      await waitFor(
        async () => {
          await t.call("POST", "/auth/forgot-password", { actor: null, body: { email: user.email } });
          return sink.messages.some((m) => m.includes(`To: ${user.email}`));
        },
        { what: "reset mail through the platform mailer", intervalMs: 300 },
      );
      expect(sink.auths[0]).toBe("mailer:pa55word");
      expect(sink.messages.find((m) => m.includes(`To: ${user.email}`))).toContain("From: Ops <ops@example.test>");
    } finally {
      await tenancy.stop();
      await sink.close();
    }
  });

  it("when the saved mailer is not allowed by the outbound rules, then identity does not connect to it (checked at connect time)", async () => {
    const refused = await smtpSink(loopbackIn("127.89"));
    const allowed = await smtpSink();
    const mailer = (host: string): SavedMailerConfig => ({
      host,
      port: 2525,
      username: "",
      from: "Ops <ops@example.test>",
      tls: false,
      password_sealed: null,
    });
    let saved = mailer(refused.address);
    const tenancy = serveRpc(t.infra.nc, t.ns, RpcName.mailerConfig, () => Promise.resolve({ mailer: saved }), t.infra.logger);
    try {
      const user = await registerUser(t.call, `guarded-${randomUUID()}@example.test`);
      await changed(EventType.mailerConfigChanged);
      // the refused address is asked for first; then the allowed one, until its mail arrives
      await t.call("POST", "/auth/forgot-password", { actor: null, body: { email: user.email } });
      saved = mailer(allowed.address);
      await changed(EventType.mailerConfigChanged);
      await waitFor(
        async () => {
          await t.call("POST", "/auth/forgot-password", { actor: null, body: { email: user.email } });
          return allowed.messages.some((m) => m.includes(`To: ${user.email}`));
        },
        { what: "reset mail through the allowed mailer", intervalMs: 300 },
      );
      expect(refused.messages).toEqual([]);
    } finally {
      await tenancy.stop();
      await refused.close();
      await allowed.close();
    }
  });
});
