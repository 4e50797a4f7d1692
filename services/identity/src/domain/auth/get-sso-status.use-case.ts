import type { IdentityDeps, PublicCtx } from "../deps";

/** The SSO configuration and the password policy, for sign-up and sign-in forms. */
export function getSsoStatus(deps: IdentityDeps, _ctx: PublicCtx) {
  const p = deps.config.password;
  return {
    enabled: deps.config.sso.providers.length > 0,
    providers: deps.config.sso.providers,
    enforce_sso: deps.config.sso.enforce,
    password_policy: {
      min_length: p.min_length,
      require_uppercase: p.require_uppercase,
      require_lowercase: p.require_lowercase,
      require_digit: p.require_digit,
      require_symbol: p.require_symbol,
    },
  };
}
