import { Client } from "pg";
import { TEAM_PERMISSIONS } from "@burnbox/contracts";
import { testDatabaseUrl } from "@burnbox/test-kit";
import { apiClient } from "../clients";
import { STRONG_PASSWORD, newClientIp, registerUser, teamWithDomain, type Api } from "../world";
import { runFuzz, type FuzzCredential, type FuzzReport } from "./run";

const DATABASES = ["identity", "tenancy", "inbox", "webhook_dispatcher"];

async function login(api: Api, email: string): Promise<string> {
  const res = await api<{ tokens: { access_token: string } }>("POST", "/auth/login", {
    body: { email, password: STRONG_PASSWORD },
    headers: { "x-forwarded-for": newClientIp() },
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.tokens.access_token;
}

/** A user credential that logs in again when a fuzzed request ended its session. */
function userCredential(api: Api, name: string, email: string, token: string): FuzzCredential {
  let current = token;
  return {
    name,
    header: async () => `Bearer ${current}`,
    refresh: async () => {
      current = await login(api, email);
    },
  };
}

/**
 * The campaign against a running system: tenants of its own (owners with an org, a team, a
 * domain, an inbox and an all-scope API key, plus a system admin), each credential kind in turn,
 * a fresh client IP per request, and as state probe the outbox rows (every change writes its
 * audit event there, in its own transaction) that mention the campaign's orgs or users.
 */
export async function fuzzCampaign(opts: {
  gatewayUrl: string;
  namespace: string;
  seed: number;
  total: number;
  /** A system admin of the campaign's own, signed in (its password STRONG_PASSWORD, for a new token when one runs out). */
  admin: () => Promise<{ email: string; token: string; userId: string }>;
}): Promise<FuzzReport> {
  const api = apiClient(opts.gatewayUrl);
  const credentials: FuzzCredential[] = [
    { name: "none", header: async () => null },
    { name: "garbage", header: async () => "Bearer x.y.z" },
  ];
  const orgs: string[] = [];
  const users: string[] = [];
  // Enough owners that no per-user limit is reached: a key counts against its creator, so each
  // owner's bucket takes two credentials' share (about 2 * total / 15 requests for 6 owners).
  for (let i = 0; i < Math.max(6, Math.ceil(opts.total / 1000) * 3); i++) {
    const world = await teamWithDomain(api);
    orgs.push(world.orgId);
    users.push(world.owner.userId);
    credentials.push(userCredential(api, `owner${i}`, world.owner.email, world.owner.token));
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "fuzz", scopes: [...TEAM_PERMISSIONS] },
    });
    if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
    credentials.push({ name: `key${i}`, header: async () => `Bearer ${key.body.raw_key}` });
    await api("POST", "/inboxes", { token: world.owner.token, body: { domain_assignment_id: world.assignmentId, alias: `fuzz${i}` } });
  }
  const admin = await opts.admin();
  users.push(admin.userId);
  credentials.push(userCredential(api, "admin", admin.email, admin.token));
  const outsider = await registerUser(api, "outsider");
  users.push(outsider.userId);

  const clients = await Promise.all(
    DATABASES.map(async (db) => {
      const c = new Client({ connectionString: testDatabaseUrl(`${opts.namespace}_${db}`) });
      await c.connect();
      return c;
    }),
  );
  const probe = async () => {
    const counts = await Promise.all(
      clients.map(async (c) => {
        const r = await c.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM outbox_events
           WHERE payload->>'org_id' = ANY($1) OR payload->'data'->>'actor_user_id' = ANY($2) OR payload->'data'->>'user_id' = ANY($2)`,
          [orgs, users],
        );
        return r.rows[0]?.n ?? "0";
      }),
    );
    return counts.join("/");
  };
  try {
    return await runFuzz({
      baseUrl: opts.gatewayUrl,
      seed: opts.seed,
      total: opts.total,
      credentials,
      stateProbe: probe,
      headers: () => ({ "x-forwarded-for": newClientIp() }),
    });
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** One line per figure, for docs/reliability.md. */
export function describeReport(r: FuzzReport): string {
  const errors = Object.entries(r.byStatus)
    .filter(([s]) => Number(s) >= 400)
    .reduce((n, [, c]) => n + c, 0);
  return [
    `requests: ${r.requests} over ${r.operations} operations in ${r.seconds.toFixed(1)} s`,
    `statuses: ${Object.entries(r.byStatus)
      .map(([s, c]) => `${s}×${c}`)
      .join(" ")}`,
    `5xx: ${r.serverErrors}`,
    `errors in the envelope: ${r.envelopeOk} of ${errors} (${errors === 0 ? 100 : ((100 * r.envelopeOk) / errors).toFixed(2)}%)`,
    `refused mutations checked for no change: ${r.refusedMutations}`,
    `findings: ${r.findings.length}`,
  ].join("\n");
}
