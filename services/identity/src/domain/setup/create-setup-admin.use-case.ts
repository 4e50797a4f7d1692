import { randomUUID } from "node:crypto";
import type { SetupCreateAdminReply, User } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";
import { selfActor } from "../audit-actor";
import { passwordProblem } from "../passwords";
import { openSession, type IssuedTokens } from "../sessions/session-tokens";

export interface SetupAdminInput {
  email: string;
  password: string;
  displayName: string;
  ip: string;
  userAgent: string;
}

type Outcome = Pick<SetupCreateAdminReply, "outcome" | "problem"> & { user: User | null; tokens: IssuedTokens | null };
const refused = (outcome: Outcome["outcome"], problem: string | null = null): Outcome => ({ outcome, problem, user: null, tokens: null });

/**
 * The first system admin, signed in, created only while no system admin exists: the check and the
 * insert run under one advisory lock, so of two concurrent setups one creates and the other finds
 * "completed". An admin that an interrupted setup created (tenancy's half failed and its undo did
 * not get through) is signed in again when the same email and password are given ("resumed"), so
 * the operator finishes setup by simply retrying it.
 */
export async function createSetupAdmin(deps: IdentityDeps, input: SetupAdminInput): Promise<Outcome> {
  const email = input.email.trim().toLowerCase();
  const problem = passwordProblem(input.password, deps.config.password);
  if (problem) return refused("invalid", problem);
  if ((await deps.data.repos.setup.adminExists()) && !(await deps.data.repos.setup.setupAdminId())) return refused("completed");
  const passwordHash = await deps.hasher.hash(input.password);
  return deps.data.write(async (repos, events) => {
    await repos.setup.lock();
    const client = { ip: input.ip, userAgent: input.userAgent };
    if (await repos.setup.adminExists()) {
      const setupAdminId = await repos.setup.setupAdminId();
      const candidate = setupAdminId ? await repos.users.locateByEmail(email) : null;
      if (!setupAdminId || candidate?.userId !== setupAdminId || !candidate.passwordHash) return refused("completed");
      if (!(await deps.hasher.verify(candidate.passwordHash, input.password))) return refused("completed");
      const user = await repos.users.recordLogin(setupAdminId, new Date(deps.now()));
      const tokens = await openSession(deps, repos, user, client);
      events.audit({
        ctx: selfActor(user.id, input.ip),
        action: "setup.admin_resumed",
        org_id: null,
        target: { type: "setup", id: user.id },
      });
      return { outcome: "resumed", problem: null, user, tokens };
    }
    if (await repos.users.locateByEmail(email)) return refused("invalid", "an account with this email already exists");
    const id = randomUUID();
    const user = await repos.users.create({
      id,
      email,
      displayName: input.displayName,
      passwordHash,
      isSystemAdmin: true,
      emailVerified: true,
      lastLoginAt: new Date(deps.now()),
    });
    await repos.setup.recordSetupAdmin(id);
    const tokens = await openSession(deps, repos, user, client);
    events.audit({
      ctx: selfActor(id, input.ip),
      action: "setup.admin_created",
      org_id: null,
      target: { type: "setup", id },
    });
    return { outcome: "created", problem: null, user, tokens };
  });
}
