import { createHash, randomUUID } from "node:crypto";
import type { Actor } from "@burnbox/contracts";
import type { Infra } from "@burnbox/service-kit/runtime";
import { internalHeaders, type TestService } from "@burnbox/test-kit";
import type { RunningService } from "../src/app";
import type { IdentityConfig } from "../src/config";
import { recordAudit, registerUser, startIdentity } from "./support";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const SECRET = `client-secret-${randomUUID()}`;

describe("SSO storage and one-time codes on real Postgres, Redis and NATS", () => {
  let t: TestService<IdentityConfig, RunningService>;
  let infra: Infra;
  let service: RunningService;
  let call: TestService<IdentityConfig, RunningService>["call"];
  let audit: ReturnType<typeof recordAudit>;
  let ns: string;
  let offset = 0;
  const admin: Actor = { user_id: randomUUID(), email: "root@example.test", is_system_admin: true, session_id: null, api_key: null };

  beforeAll(async () => {
    t = await startIdentity({ encryption: { key: "ab".repeat(32) } }, { now: () => Date.now() + offset });
    ({ infra, service, call, ns } = t);
    audit = recordAudit(infra, ns);
  });

  afterAll(async () => {
    audit?.stop();
    await t?.stop();
  });

  it("when a provider is created, then its secret is stored sealed (AES-GCM), never answered and never audited", async () => {
    const res = await call<{ id: string; has_client_secret: boolean }>("POST", "/admin/sso/providers", {
      actor: admin,
      body: {
        name: `int-${ns}`.slice(0, 32).toLowerCase(),
        provider_type: "google",
        label: "Google",
        client_id: "cid",
        client_secret: SECRET,
      },
    });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const row = (
      await infra.pool!.query<{ client_secret_enc: string }>("SELECT client_secret_enc FROM sso_providers WHERE id = $1", [res.body.id])
    ).rows[0]!;
    expect(row.client_secret_enc).toMatch(/^v1\./);
    expect(row.client_secret_enc).not.toContain(SECRET);
    expect(service.deps.secrets.open(row.client_secret_enc)).toBe(SECRET);
    const entry = await audit.next("sso_provider.created", res.body.id);
    expect(JSON.stringify(entry)).not.toContain(SECRET);
  });

  it("when a one-time code is exchanged twice, after 60 s or without its browser's flow cookie, then only the first exchange in time in that browser signs in", async () => {
    const user = await registerUser(call, `sso-${ns}@example.test`);
    const flow = "F".repeat(43);
    const grant = async (code: string) =>
      service.deps.data.repos.ssoGrants.put(
        "code",
        sha256(code),
        {
          sealed: service.deps.secrets.seal(
            JSON.stringify({ user_id: user.user.id, tokens: { ...user.tokens, session_id: randomUUID() } }),
          ),
          flow: sha256(flow),
        },
        new Date(Date.now() + offset + 60_000),
      );
    /** The exchange as a browser sends it: with its flow cookie, or none. */
    const exchange = async (code: string, cookie: string | null = flow) => {
      const res = await fetch(`http://127.0.0.1:${service.port}/api/v1/auth/sso/exchange`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...internalHeaders(null),
          ...(cookie === null ? {} : { cookie: `bb_sso_flow=${cookie}` }),
        },
        body: JSON.stringify({ code }),
      });
      return { status: res.status, body: (await res.json()) as { user?: { id: string } } };
    };
    await grant("fresh-code");
    expect((await exchange("fresh-code", null)).status).toBe(401);
    expect((await exchange("fresh-code", "G".repeat(43))).status).toBe(401);
    const first = await exchange("fresh-code");
    expect(first).toMatchObject({ status: 200, body: { user: { id: user.user.id } } });
    expect((await exchange("fresh-code")).status).toBe(401);

    await grant("old-code");
    offset += 61_000;
    expect((await exchange("old-code")).status).toBe(401);
    // an expired code is gone after its one try, like a used one
    const left = await infra.pool!.query("SELECT 1 FROM sso_grants WHERE handle_hash = $1", [sha256("old-code")]);
    expect(left.rowCount).toBe(0);
  });
});
