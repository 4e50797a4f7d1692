import { randomBytes, randomUUID } from "node:crypto";
import {
  EventType,
  RpcName,
  type SetupCompleteBody,
  type SetupCompleteResult,
  type SetupCookie,
  type SetupCreateAdminReply,
} from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { Actor } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { isTrusted } from "../domains/trusted-domain";
import { probeStorage } from "../infra-probe";
import { NEW_ORG_SETTINGS } from "../orgs/org-settings";
import { checkMailerTarget } from "../platform-config/mailer-target";
import { adminProbeEnv } from "../platform-config/probe-env";
import { slugify } from "../slug";
import { setupProgress } from "./setup-progress";
import { newDkimKey } from "../domains/dkim-key";

export interface SetupClient {
  ip: string;
  userAgent: string;
  /** The browser's Origin (cookie mode checks it as login does). */
  origin: string | null;
}

/** The answer and, in cookie mode, the refresh cookie the HTTP layer sets. */
export interface CompletedSetup {
  result: SetupCompleteResult;
  cookie: SetupCookie | null;
}

/** The mailer and storage rows, sealed and checked before anything is created (a 400 then changes nothing). */
function preparedConfig(deps: TenancyDeps, input: SetupCompleteBody) {
  const m = input.mailer;
  const mailer = m
    ? {
        fields: { host: m.host, port: m.port, username: m.username ?? "", from: m.from, tls: m.tls },
        sealed: m.password ? deps.secrets.seal(m.password) : null,
      }
    : null;
  const s = input.storage;
  const s3 = s?.provider === "s3";
  const storage = s
    ? {
        fields: {
          provider: s.provider,
          local_path: s3 ? null : (s.local_path ?? null),
          endpoint: s3 ? (s.endpoint ?? null) : null,
          bucket: s3 ? (s.bucket ?? null) : null,
          region: s3 ? (s.region ?? null) : null,
          access_key: s3 ? (s.access_key ?? null) : null,
          use_ssl: s3 ? (s.use_ssl ?? true) : false,
        },
        secret: s3 && s.secret_key ? s.secret_key : null,
        sealed: s3 && s.secret_key ? deps.secrets.seal(s.secret_key) : null,
      }
    : null;
  return { mailer, storage };
}

const TRIES = 3;

/** Undoes identity's half (the admin it created) after tenancy's half failed; retried, then logged. */
async function undoAdmin(deps: TenancyDeps, userId: string): Promise<boolean> {
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    try {
      await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.setupAbort, { user_id: userId }, 5000);
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
  return false;
}

async function createAdmin(deps: TenancyDeps, input: SetupCompleteBody, client: SetupClient): Promise<SetupCreateAdminReply> {
  try {
    // argon2 hashing (and verifying, on a resumed setup) runs on identity's side: a longer timeout
    return await rpcRequest(
      deps.nc,
      deps.config.nats.namespace,
      RpcName.setupCreateAdmin,
      {
        email: input.admin.email,
        password: input.admin.password,
        display_name: input.admin.display_name,
        client_ip: client.ip,
        user_agent: client.userAgent.slice(0, 2000),
        use_cookie: input.use_cookie === true,
        origin: client.origin,
      },
      15_000,
    );
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("setup could not reach the identity service; nothing was created");
    throw err;
  }
}

/**
 * First-run setup across two services, all or nothing. Everything that can be refused (the body,
 * the secrets' sealing, the storage check) is decided first. Then identity creates the admin, only
 * while no system admin exists (one of two concurrent setups wins, the other is 409). Then tenancy
 * commits the org (the admin its owner), team, domain (assigned to the team with full access when
 * both are given), mailer, storage and its completion mark in one transaction. If that fails, identity is asked to remove the admin again; if even that cannot
 * get through, the admin is left flagged as setup's, setup stays incomplete, and retrying complete
 * with the same email and password signs that admin in again and finishes tenancy's half.
 */
export async function completeSetup(deps: TenancyDeps, input: SetupCompleteBody, client: SetupClient): Promise<CompletedSetup> {
  if ((await setupProgress(deps)) === "complete") throw errors.conflict("setup is already complete");
  const config = preparedConfig(deps, input);
  if (config.mailer) await checkMailerTarget(deps.config, config.mailer.fields.host, config.mailer.fields.port);
  if (config.storage?.fields.provider === "s3") {
    const check = await probeStorage({ ...config.storage.fields, secret_key: config.storage.secret }, adminProbeEnv(deps.config));
    if (!check.success) throw errors.validation(`storage check failed: ${check.message}`);
  }
  const admin = await createAdmin(deps, input, client);
  switch (admin.outcome) {
    case "completed":
      throw errors.conflict("setup is already complete");
    case "invalid":
      throw errors.validation(
        admin.problem ?? "invalid admin details",
        admin.problem ? [{ path: "admin", message: admin.problem }] : undefined,
      );
    case "origin_refused":
      throw errors.forbidden(admin.problem ?? "origin not allowed");
    case "created":
    case "resumed":
      break;
  }
  const user = admin.user;
  const tokens = admin.tokens;
  if (!user || !tokens) throw new Error("identity answered setup without the admin");
  const actor: Actor = { user_id: user.id, email: user.email, is_system_admin: true, session_id: null, api_key: null };
  const ctx: RequestCtx = { actor, ip: client.ip, requestId: "", userAgent: client.userAgent };
  try {
    // extensions 10: the domain's DKIM key, made before the transaction
    const dkim = input.domain ? await newDkimKey(deps.secrets) : null;
    const result = await deps.data.write(async (repos, events) => {
      const orgId = randomUUID();
      if (!(await repos.setup.markCompleted({ adminUserId: user.id, orgId, at: new Date(deps.now()) })))
        throw errors.conflict("setup is already complete");
      const org = await repos.orgs.create(
        { orgId },
        { name: input.org.name, slug: slugify(input.org.name), logoUrl: null, settings: NEW_ORG_SETTINGS, ownerUserId: user.id },
      );
      events.audit({
        ctx,
        action: "org.created",
        org_id: orgId,
        target: { type: "org", id: orgId },
        metadata: { name: org.name, slug: org.slug, setup: true },
      });
      const team = input.team
        ? await repos.teams.create(
            { orgId, teamId: randomUUID() },
            { name: input.team.name, slug: slugify(input.team.name), description: null, leadUserId: user.id },
          )
        : undefined;
      if (team)
        events.audit({
          ctx,
          action: "team.created",
          org_id: orgId,
          team_id: team.id,
          target: { type: "team", id: team.id },
          metadata: { name: team.name },
        });
      const trusted = input.domain ? isTrusted(input.domain.domain_name, deps.config.domains.trusted) : false;
      const domain = input.domain
        ? await repos.domains.create(
            { orgId },
            {
              id: randomUUID(),
              domainName: input.domain.domain_name,
              description: null,
              status: trusted ? "verified" : "pending_verification",
              dnsVerified: trusted,
              verificationRecord: `burnbox-verify=${randomBytes(16).toString("hex")}`,
              dkim,
            },
          )
        : undefined;
      if (domain)
        events.audit({
          ctx,
          action: "domain.created",
          org_id: orgId,
          target: { type: "domain", id: domain.id },
          metadata: { domain_name: domain.domain_name, trusted },
        });
      // the first domain is the first team's (full access): its owner creates inboxes on it at once
      // (a domain still pending verification takes inboxes once it is verified)
      const assignment =
        team && domain
          ? await repos.domainAssignments.create(
              { orgId, teamId: team.id },
              { id: randomUUID(), domainId: domain.id, accessLevel: "full", settings: {} },
            )
          : undefined;
      if (assignment && team && domain)
        events.audit({
          ctx,
          action: "domain.assigned",
          org_id: orgId,
          team_id: team.id,
          target: { type: "domain_assignment", id: assignment.id },
          metadata: { domain_id: domain.id, domain_name: domain.domain_name, access_level: "full", setup: true },
        });
      if (config.mailer) {
        await repos.platformConfig.saveMailer(config.mailer.fields, config.mailer.sealed, user.id);
        events.event(EventType.mailerConfigChanged, { org_id: null, team_id: null, data: {} });
      }
      if (config.storage) {
        await repos.platformConfig.saveStorage(config.storage.fields, config.storage.sealed, user.id);
        events.event(EventType.storageConfigChanged, { org_id: null, team_id: null, data: {} });
      }
      events.audit({
        ctx,
        action: "setup.completed",
        org_id: null,
        target: { type: "setup", id: user.id },
        // what was configured, never a secret
        metadata: {
          org_id: orgId,
          team_id: team?.id ?? null,
          domain_id: domain?.id ?? null,
          domain_assignment_id: assignment?.id ?? null,
          mailer: config.mailer ? { ...config.mailer.fields, password: config.mailer.sealed ? "set" : "none" } : null,
          storage: config.storage ? { ...config.storage.fields, secret_key: config.storage.sealed ? "set" : "none" } : null,
        },
      });
      return { user, org, tokens, ...(team ? { team } : {}), ...(domain ? { domain } : {}) };
    });
    return { result: result, cookie: admin.cookie };
  } catch (err) {
    // when the undo cannot get through, the admin stays flagged as setup's: a retry resumes with it
    if (admin.outcome === "created") await undoAdmin(deps, user.id);
    throw err;
  }
}
