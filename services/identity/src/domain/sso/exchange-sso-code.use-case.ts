import { z } from "zod";
import { errors } from "@burnbox/service-kit/runtime";
import type { AuthOutcome } from "../auth/admission";
import type { IdentityDeps, PublicCtx } from "../deps";
import { sha256 } from "../tokens";
import { CodePayload } from "./sso-flow";

const Sealed = z.object({
  user_id: z.string().uuid(),
  tokens: z.object({ access_token: z.string(), refresh_token: z.string(), expires_in: z.number(), session_id: z.string() }),
});

/**
 * `POST /auth/sso/exchange`: the one-time code (60 s) for the session the callback opened, in the
 * browser that started the login (`flow`, its flow cookie); 401 for an unknown, used or old code,
 * and for one from another browser (which leaves it to its own).
 */
export async function exchangeSsoCode(
  deps: IdentityDeps,
  _ctx: PublicCtx,
  input: { code: string; flow?: string | undefined },
): Promise<AuthOutcome> {
  if (input.flow === undefined) throw errors.unauthenticated("invalid or expired code (or a sign-in started in another browser)");
  const taken = await deps.data.repos.ssoGrants.takeBound("code", sha256(input.code), sha256(input.flow), new Date(deps.now()));
  const grant = CodePayload.safeParse(taken);
  if (!grant.success) throw errors.unauthenticated("invalid or expired code (or a sign-in started in another browser)");
  const out = Sealed.parse(JSON.parse(deps.secrets.open(grant.data.sealed)));
  const user = await deps.data.repos.users.get(out.user_id);
  if (!user) throw errors.unauthenticated("invalid or expired code");
  return { user, tokens: out.tokens };
}
