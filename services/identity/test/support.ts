import path from "node:path";
import { RpcName, subjects, type EventOf } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import { TEST_JWT_SECRET, startTestService, waitFor, type serviceClient } from "@burnbox/test-kit";
import { startService } from "../src/app";
import { loadIdentityConfig } from "../src/config";

/**
 * Identity in-process on the real Postgres, Redis and NATS, with a cheap argon2 cost for speed.
 * Password logins ask tenancy whether an org of the user enforces SSO (and fail closed when it
 * does not answer): a stand-in answers "no" over the real NATS, unless `tenancy: false`.
 */
export async function startIdentity(extra: Record<string, unknown> = {}, opts: { now?: () => number; tenancy?: boolean } = {}) {
  const t = await startTestService({
    prefix: "id",
    load: (o) => loadIdentityConfig({}, o),
    start: (config, infra) => startService(config, infra, opts),
    migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
    redis: true,
    overrides: () => ({ auth: { jwt_secret: TEST_JWT_SECRET, argon2: { memory_kib: 4096, time_cost: 1 } }, ...extra }),
  });
  if (opts.tenancy === false) return t;
  const standIn = serveRpc(t.infra.nc, t.ns, RpcName.ssoEnforced, async () => ({ enforced: false }), t.infra.logger);
  const stop = t.stop.bind(t);
  t.stop = async () => {
    await standIn.stop();
    await stop();
  };
  return t;
}

export type AuditEntry = EventOf<"audit.recorded">["data"];

/** The audit entries identity publishes in the test's namespace, as they arrive over NATS. */
export function recordAudit(infra: Infra, ns: string) {
  const entries: AuditEntry[] = [];
  const sub = infra.nc.subscribe(subjects(ns).event("audit.recorded"), {
    callback: (_err, msg) => {
      entries.push(msg.json<EventOf<"audit.recorded">>().data);
    },
  });
  const matching = (action: string, targetId: string) => entries.filter((e) => e.action === action && e.target_id === targetId);
  return {
    /** Every entry seen so far for that action and target. */
    matching,
    /** Waits for the first entry of that action and target. */
    next: (action: string, targetId: string) => waitFor(() => matching(action, targetId)[0], { what: `audit entry ${action}` }),
    stop: () => sub.unsubscribe(),
  };
}

/** The password test users register with (it meets the default policy). */
export const PASSWORD = "Correct-Horse-9-Battery";

export interface Registered {
  email: string;
  user: { id: string; email: string; display_name: string };
  tokens: { access_token: string; refresh_token: string; expires_in: number };
}

/** Registers a user through the API (a 201 or the test fails); password and display name can be overridden. */
export async function registerUser(
  call: ReturnType<typeof serviceClient>,
  email: string,
  overrides: { password?: string; display_name?: string } = {},
): Promise<Registered> {
  const res = await call<Omit<Registered, "email">>("POST", "/auth/register", {
    actor: null,
    body: { email, password: PASSWORD, display_name: "Tess", ...overrides },
  });
  if (res.status !== 201) throw new Error(`registration of ${email} answered ${res.status}`);
  return { email, ...res.body };
}
