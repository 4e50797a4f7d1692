import { parseDurationMs, RpcName, type SetupCookie, type TokenPair } from "@burnbox/contracts";
import { API_PREFIX } from "@burnbox/service-kit/http";
import { serveRpc } from "@burnbox/service-kit/messaging";
import type { IdentityConfig } from "../config";
import type { IdentityDeps } from "../domain/deps";
import { originRefusal } from "../domain/auth/origin-policy";
import { abortSetupAdmin } from "../domain/setup/abort-setup-admin.use-case";
import { createSetupAdmin } from "../domain/setup/create-setup-admin.use-case";
import { getSetupState } from "../domain/setup/get-setup-state.use-case";
import { REFRESH_COOKIE } from "../http/cookies";

/** The refresh cookie login would set (cookie mode): tenancy, which answers /setup/complete, sets it. */
const refreshCookie = (config: IdentityConfig, value: string): SetupCookie => ({
  name: REFRESH_COOKIE,
  value,
  path: `${API_PREFIX}/auth`,
  max_age_ms: parseDurationMs(config.auth.refresh_token_ttl),
  http_only: true,
  secure: config.base_url.startsWith("https:"),
  same_site: config.cookies.same_site,
});

/**
 * First-run setup, asked by tenancy (which serves /setup/*): whether a system admin exists, create
 * the first one (atomically: one of two concurrent setups wins), and undo it when tenancy's half failed.
 */
export function serveSetupRpc(deps: IdentityDeps): Array<{ stop(): Promise<void> }> {
  const ns = deps.config.nats.namespace;
  return [
    serveRpc(deps.nc, ns, RpcName.setupState, () => getSetupState(deps), deps.logger),
    serveRpc(
      deps.nc,
      ns,
      RpcName.setupCreateAdmin,
      async (req) => {
        // cookie mode accepts browser requests only from our own origins, as login does
        const refusal = req.use_cookie ? originRefusal(deps.config, req.origin) : null;
        if (refusal) return { outcome: "origin_refused", problem: refusal, user: null, tokens: null, cookie: null };
        const out = await createSetupAdmin(deps, {
          email: req.email,
          password: req.password,
          displayName: req.display_name,
          ip: req.client_ip,
          userAgent: req.user_agent,
        });
        const t = out.tokens;
        const tokens: TokenPair | null = t
          ? { access_token: t.access_token, refresh_token: req.use_cookie ? "" : t.refresh_token, expires_in: t.expires_in }
          : null;
        const cookie = t && req.use_cookie ? refreshCookie(deps.config, t.refresh_token) : null;
        return { outcome: out.outcome, problem: out.problem, user: out.user, tokens, cookie };
      },
      deps.logger,
    ),
    serveRpc(deps.nc, ns, RpcName.setupAbort, async (req) => ({ removed: await abortSetupAdmin(deps, req.user_id) }), deps.logger),
  ];
}
