import { randomBytes } from "node:crypto";
import { type apiClient } from "./clients";
import type { SharedSystem } from "./shared-system";
import { TRUSTED_DOMAIN } from "./system";

export type Api = ReturnType<typeof apiClient>;

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export const STRONG_PASSWORD = "Correct-Horse-9-Battery";

/**
 * A client IP of its own (sent as X-Forwarded-For; the gateway trusts the runner as a proxy), so
 * the per-IP limits of one test never count another's calls on the shared system.
 */
export function newClientIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${Math.max(1, c ?? 1)}`;
}

/**
 * Resolves when at least `needMs` remain in the gateway's current fixed rate-limit window of
 * `windowMs` (windows are aligned to the epoch, and the gateway runs on this machine's clock): a
 * test that counts up to a limit then never has the window roll over half way. It waits only when
 * the current window is about to end, at most `needMs`.
 */
export async function roomInWindow(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 5));
}

type Registered = { email: string; token: string; userId: string };

async function register(api: Api, email: string, label: string) {
  return api<{ user: { id: string }; tokens: Tokens }>("POST", "/auth/register", {
    body: { email, password: STRONG_PASSWORD, display_name: label },
    headers: { "x-forwarded-for": newClientIp() },
  });
}

export async function registerUser(api: Api, label = "user"): Promise<Registered> {
  const email = `${label}-${randomBytes(4).toString("hex")}@example.test`;
  const res = await register(api, email, label);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, token: res.body.tokens.access_token, userId: res.body.user.id };
}

/**
 * A system admin of its own: an address listed in `admin.emails` registers, follows the
 * verification link mailed to it (only that makes it an admin, and ends its first session), and
 * signs in again.
 */
export async function registerAdmin(api: Api, system: SharedSystem): Promise<Registered> {
  const email = await system.claimAdminEmail();
  const res = await register(api, email, "Root");
  if (res.status !== 201) throw new Error(`register admin failed: ${res.status} ${JSON.stringify(res.body)}`);
  await system.confirmAdminEmail(email);
  const login = await api<{ user: { is_system_admin: boolean }; tokens: Tokens }>("POST", "/auth/login", {
    body: { email, password: STRONG_PASSWORD },
    headers: { "x-forwarded-for": newClientIp() },
  });
  if (login.status !== 200 || !login.body.user.is_system_admin)
    throw new Error(`admin sign-in after verification: ${login.status} ${JSON.stringify(login.body)}`);
  return { email, token: login.body.tokens.access_token, userId: res.body.user.id };
}

/** A user who owns an org with one team and a trusted domain assigned to it. */
export async function teamWithDomain(api: Api, subdomain = randomBytes(3).toString("hex")) {
  const owner = await registerUser(api, "owner");
  const org = await api<{ id: string }>("POST", "/orgs", { token: owner.token, body: { name: `Org ${subdomain}` } });
  if (org.status !== 201) throw new Error(`org: ${org.status} ${JSON.stringify(org.body)}`);
  const team = await api<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, { token: owner.token, body: { name: "QA" } });
  if (team.status !== 201) throw new Error(`team: ${team.status} ${JSON.stringify(team.body)}`);
  const domainName = `${subdomain}.${TRUSTED_DOMAIN}`;
  const domain = await api<{ id: string; status: string }>("POST", `/orgs/${org.body.id}/domains`, {
    token: owner.token,
    body: { domain_name: domainName },
  });
  if (domain.status !== 201) throw new Error(`domain: ${domain.status} ${JSON.stringify(domain.body)}`);
  const assignment = await api<{ id: string }>("POST", `/orgs/${org.body.id}/teams/${team.body.id}/domains`, {
    token: owner.token,
    body: { domain_id: domain.body.id },
  });
  if (assignment.status !== 201) throw new Error(`assignment: ${assignment.status} ${JSON.stringify(assignment.body)}`);
  return {
    owner,
    orgId: org.body.id,
    teamId: team.body.id,
    domainName,
    domainStatus: domain.body.status,
    assignmentId: assignment.body.id,
  };
}

export async function createInbox(api: Api, token: string, assignmentId: string, alias: string) {
  const res = await api<{ id: string; full_address: string; address: string }>("POST", "/inboxes", {
    token,
    body: { domain_assignment_id: assignmentId, alias },
  });
  if (res.status !== 201) throw new Error(`inbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
