import type { IdentityDeps, PublicCtx } from "../deps";

/** The enabled SSO providers (never secrets) and the password policy, for sign-up and sign-in forms. */
export async function getSsoStatus(deps: IdentityDeps, _ctx: PublicCtx) {
  const p = deps.config.password;
  const providers = await deps.data.repos.ssoProviders.listEnabled();
  return {
    enabled: providers.length > 0,
    providers: providers.map((x) => ({ name: x.name, provider_type: x.provider_type, label: x.label })),
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
