import { randomUUID } from "node:crypto";
import { EventType } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { StoredProvider } from "../../data/sso-provider.repository";
import { selfActor } from "../audit-actor";
import { admit, signedIn } from "../auth/admission";
import { createPendingLogin, dropPendingLogin } from "../auth/pending-login";
import type { IdentityDeps, PublicCtx } from "../deps";
import { emailDomainOf, provisioningPlan } from "../sso-admin/provisioning-plan";
import { opaqueToken, sha256 } from "../tokens";
import { browserSessionUser } from "./own-session";
import type { ProviderAccount } from "../../adapters/relying-party";
import {
  codeRedirect,
  conflictRedirect,
  errorRedirect,
  linkedRedirect,
  redirectUriOf,
  SSO_CODE_TTL_MS,
  StatePayload,
  type SsoErrorCode,
} from "./sso-flow";
import { bindPendingToFlow } from "./pending-binding";

/**
 * `GET /auth/sso/:provider/callback`: the state is taken (single use) and must come with the flow
 * cookie of the browser that started (`flow`); a link must come with the session (`session`, the
 * refresh cookie) of the user who started it. Then the code is redeemed and the ID token checked;
 * the account is found, linked or provisioned and admitted under the session limit, exactly as a
 * password login. Answers where to send the browser; a bad or reused state is a 400.
 */
export async function completeSso(
  deps: IdentityDeps,
  ctx: PublicCtx,
  input: {
    provider: string;
    state?: string | undefined;
    error?: string | undefined;
    rawQuery: string;
    flow?: string | undefined;
    session?: string | undefined;
  },
): Promise<string> {
  if (!input.state) throw errors.validation("state is required");
  const taken = StatePayload.safeParse(await deps.data.repos.ssoGrants.take("state", sha256(input.state), new Date(deps.now())));
  if (!taken.success) throw errors.validation("invalid or expired state");
  const grant = taken.data;
  const provider = await deps.data.repos.ssoProviders.get(grant.provider_id);
  if (!provider || provider.name !== input.provider) throw errors.validation("invalid or expired state");

  const fail = async (code: SsoErrorCode, userId: string | null = null) => {
    await deps.data.write((_repos, events) => {
      events.audit({
        ctx: userId ? selfActor(userId, ctx.ip) : null,
        action: "user.sso_login_failed",
        org_id: null,
        target: { type: "user", id: userId },
        metadata: { provider: provider.name, reason: code },
      });
      return Promise.resolve();
    });
    return errorRedirect(deps, code);
  };
  // login CSRF: a callback URL (or its code) sent to someone else's browser signs nobody in there
  if (input.flow === undefined || sha256(input.flow) !== grant.flow) return fail("other_browser", grant.user_id);
  // forced linking: the ticket's user must still be the one signed in in this browser (checked at
  // the start too; with `cookies.same_site: strict` the provider's redirect brings no session cookie,
  // and the start's check with this browser's flow cookie is what holds)
  if (grant.intent === "link" && !(await linkerStillHere(deps, grant.user_id, input.session))) {
    return fail("link_session_required", grant.user_id);
  }
  if (!provider.enabled) return fail("provider_unavailable");
  if (input.error) return fail("access_denied");

  let account: ProviderAccount;
  try {
    const current = new URL(`${redirectUriOf(deps, provider.name)}?${input.rawQuery}`);
    account = await deps.rp.redeem(provider, current, { state: input.state, nonce: grant.nonce, codeVerifier: grant.code_verifier });
  } catch (err) {
    deps.logger.warn({ err: { message: (err as Error).message }, provider: provider.name }, "SSO code redemption failed");
    return fail("sso_failed");
  }
  if (!account.email || !emailAccepted(provider, account)) return fail("email_not_verified");
  const verified = { ...account, email: account.email };

  if (grant.intent === "link" && grant.user_id) return link(deps, ctx, provider, verified, grant.user_id, fail);

  const found = await accountUser(deps, ctx, provider, verified);
  if (found.kind !== "user") return fail(found.kind);
  return signInWithSso(deps, ctx, provider, verified, found.userId, grant.flow);
}

type Fail = (code: SsoErrorCode, userId?: string | null) => Promise<string>;

async function linkerStillHere(deps: IdentityDeps, userId: string | null, session: string | undefined): Promise<boolean> {
  if (!userId) return false;
  if (deps.config.cookies.same_site === "strict") return true;
  return (await browserSessionUser(deps, session)) === userId;
}

/**
 * Whether the provider's address may be used: it must not say the address is unverified, and it
 * must say it is verified unless the provider is trusted for email (some send no claim at all).
 */
const emailAccepted = (provider: StoredProvider, account: ProviderAccount): boolean =>
  account.emailVerified === true || (account.emailVerified === null && provider.trust_email);

/**
 * The user a provider account signs in: linked already, linked now by its email, or provisioned.
 * Linking by email takes a provider trusted for email and a local account whose address is
 * verified: whoever registered an address without proving it (an attacker before its owner, say)
 * never gets the owner's provider identity, and a provider that is not authoritative for its
 * addresses never takes over an account. Otherwise `link_required`: the user signs in as they
 * usually do and links the provider from the account page.
 */
async function accountUser(
  deps: IdentityDeps,
  ctx: PublicCtx,
  provider: StoredProvider,
  account: ProviderAccount & { email: string },
): Promise<{ kind: "user"; userId: string } | { kind: "link_required" | "not_provisioned" }> {
  const repos = deps.data.repos;
  const linked = await repos.ssoIdentities.userOf(provider.id, account.subject);
  if (linked) return { kind: "user", userId: linked };
  const existing = await repos.users.locateByEmail(account.email);
  if (existing) {
    const user = await repos.users.get(existing.userId);
    if (!provider.trust_email || !user?.email_verified) return { kind: "link_required" };
    await deps.data.write(async (tx, events) => {
      await tx.ssoIdentities.link(existing.userId, {
        id: randomUUID(),
        providerId: provider.id,
        subject: account.subject,
        email: account.email,
        at: new Date(deps.now()),
      });
      events.audit({
        ctx: selfActor(existing.userId, ctx.ip),
        action: "user.sso_linked",
        org_id: null,
        target: { type: "user", id: existing.userId },
        metadata: { provider: provider.name, subject: account.subject, by: "verified_email" },
      });
    });
    return { kind: "user", userId: existing.userId };
  }
  const plan = provisioningPlan(provider, await repos.ssoProviders.mappingsForDomain(provider.id, emailDomainOf(account.email)));
  if (!plan.allowed) return { kind: "not_provisioned" };
  const id = randomUUID();
  await deps.data.write(async (tx, events) => {
    await tx.users.create({
      id,
      email: account.email,
      displayName: (account.name ?? account.email.slice(0, account.email.indexOf("@"))).slice(0, 100),
      passwordHash: null,
      isSystemAdmin: false,
      // only a provider trusted for email vouches for the address; another one's account proves it later
      emailVerified: provider.trust_email,
      ssoProvider: provider.name,
      lastLoginAt: new Date(deps.now()),
    });
    await tx.ssoIdentities.link(id, {
      id: randomUUID(),
      providerId: provider.id,
      subject: account.subject,
      email: account.email,
      at: new Date(deps.now()),
    });
    events.audit({
      ctx: selfActor(id, ctx.ip),
      action: "user.sso_provisioned",
      org_id: null,
      target: { type: "user", id },
      metadata: { provider: provider.name, memberships: plan.memberships },
    });
    // the org and team memberships are tenancy's: it creates them from this event, written with the
    // user, so they are made even when tenancy is down now (it catches up from the stream)
    events.event(EventType.userSsoProvisioned, {
      org_id: null,
      team_id: null,
      data: { user_id: id, provider: provider.name, memberships: plan.memberships },
    });
  });
  return { kind: "user", userId: id };
}

/**
 * Admission under the session limit, as for a password login (Redis down: the oldest session goes).
 * The one-time code and a pending login are bound to the flow (`flowHash`) of the browser that started.
 */
async function signInWithSso(
  deps: IdentityDeps,
  ctx: PublicCtx,
  provider: StoredProvider,
  account: ProviderAccount & { email: string },
  userId: string,
  flowHash: string,
): Promise<string> {
  for (let fallback = false; ; fallback = true) {
    const a = await deps.data.write(async (repos, events) => {
      await repos.ssoIdentities.touch(userId, provider.id, account.email, new Date(deps.now()));
      return admit(deps, repos, events, userId, ctx, { fallback, action: "user.sso_login" });
    });
    if (a.kind === "in") {
      const out = await signedIn(deps, userId, a);
      const code = opaqueToken();
      const sealed = deps.secrets.seal(JSON.stringify({ user_id: userId, tokens: out.tokens }));
      await deps.data.repos.ssoGrants.put("code", sha256(code), { sealed, flow: flowHash }, new Date(deps.now() + SSO_CODE_TTL_MS));
      return codeRedirect(deps, code);
    }
    const pending = await createPendingLogin(deps, userId);
    if (pending && (await bindPendingToFlow(deps, pending, flowHash))) return conflictRedirect(deps, pending, a.limit);
    // an unbound pending token would work in any browser: fall back as when Redis is away
    if (pending) await dropPendingLogin(deps, pending);
  }
}

/** Links the provider account to the ticket's user, unless it belongs to someone else. */
async function link(
  deps: IdentityDeps,
  ctx: PublicCtx,
  provider: StoredProvider,
  account: ProviderAccount & { email: string },
  userId: string,
  fail: Fail,
): Promise<string> {
  const owner = await deps.data.repos.ssoIdentities.userOf(provider.id, account.subject);
  if (owner && owner !== userId) return fail("already_linked", userId);
  if (owner === userId) return linkedRedirect(deps, provider.name);
  try {
    await deps.data.write(async (tx, events) => {
      await tx.ssoIdentities.link(userId, {
        id: randomUUID(),
        providerId: provider.id,
        subject: account.subject,
        email: account.email,
        at: new Date(deps.now()),
      });
      events.audit({
        ctx: selfActor(userId, ctx.ip),
        action: "user.sso_linked",
        org_id: null,
        target: { type: "user", id: userId },
        metadata: { provider: provider.name, subject: account.subject, by: "link" },
      });
    });
  } catch {
    return fail("link_failed", userId);
  }
  return linkedRedirect(deps, provider.name);
}
