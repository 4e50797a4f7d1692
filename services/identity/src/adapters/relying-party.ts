import * as oidc from "openid-client";
import type { StoredProvider } from "../data/sso-provider.repository";
import { isUnsafeAllowed } from "../domain/sso/issuer-policy";
import { GITHUB, type GithubEndpoints } from "../domain/sso/presets";
import type { Clock } from "@burnbox/service-kit/runtime";
import type { HostResolver, SecretBox } from "@burnbox/service-kit/security";
import { guardedFetch } from "./guarded-fetch";

/** What the callback learnt from the provider: who, and whether it vouches for the email. */
export interface ProviderAccount {
  subject: string;
  email: string | null;
  /** The provider's word on the address: true or false as it said, null when it said nothing (no `email_verified` claim). */
  emailVerified: boolean | null;
  name: string | null;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
}

/** Discovery documents are fetched again after this long, or when the provider changes. */
const CONFIG_TTL_MS = 10 * 60_000;

/**
 * The relying party: openid-client does discovery, the authorization URL, the code grant with
 * PKCE and the ID token's validation (signature, issuer, audience, expiry, nonce). GitHub is plain
 * OAuth2 with its verified primary email read from its API.
 */
export class RelyingParty {
  private readonly configs = new Map<string, { key: string; at: number; config: oidc.Configuration }>();

  private readonly github: GithubEndpoints;
  /** Every request of a login goes through the kit's outbound guard (`dns.servers`, address rules, no redirects). */
  private readonly fetch: oidc.CustomFetch;

  constructor(
    private readonly opts: {
      secrets: SecretBox;
      unsafeAllowedIssuers: readonly string[];
      now: Clock;
      github?: GithubEndpoints;
      resolve: HostResolver;
    },
  ) {
    this.github = opts.github ?? GITHUB;
    this.fetch = guardedFetch({ resolve: opts.resolve, unsafeAllowedIssuers: opts.unsafeAllowedIssuers, timeoutMs: 10_000 });
  }

  /** Fresh state, nonce and PKCE verifier (with its S256 challenge) for one login. */
  async newLoginChecks(): Promise<{ state: string; nonce: string; codeVerifier: string; codeChallenge: string }> {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    return {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    };
  }

  forget(providerId: string): void {
    this.configs.delete(providerId);
  }

  async configFor(p: StoredProvider): Promise<oidc.Configuration> {
    const key = `${p.updated_at}`;
    const hit = this.configs.get(p.id);
    if (hit && hit.key === key && this.opts.now() - hit.at < CONFIG_TTL_MS) return hit.config;
    const secret = this.opts.secrets.open(p.clientSecretEnc);
    let config: oidc.Configuration;
    if (p.provider_type === "github") {
      const gh = this.github;
      config = new oidc.Configuration(
        { issuer: gh.issuer, authorization_endpoint: gh.authorization, token_endpoint: gh.token },
        p.client_id,
        { client_secret: secret },
        oidc.ClientSecretBasic(secret),
      );
      // a local test server over http, listed in sso.unsafe_allowed_issuers (checked at start)
      const insecure = [gh.issuer, gh.user].some((u) => {
        const url = new URL(u);
        return url.protocol === "http:" && isUnsafeAllowed(url, this.opts.unsafeAllowedIssuers);
      });
      if (insecure) oidc.allowInsecureRequests(config);
    } else {
      const issuer = new URL(p.issuer_url ?? "");
      const insecure = issuer.protocol === "http:" && isUnsafeAllowed(issuer, this.opts.unsafeAllowedIssuers);
      config = await oidc.discovery(issuer, p.client_id, { client_secret: secret }, oidc.ClientSecretBasic(secret), {
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
        [oidc.customFetch]: this.fetch,
      });
    }
    config[oidc.customFetch] = this.fetch;
    this.configs.set(p.id, { key, at: this.opts.now(), config });
    return config;
  }

  async authorizationUrl(p: StoredProvider, req: AuthorizationRequest): Promise<URL> {
    const config = await this.configFor(p);
    const params: Record<string, string> = {
      redirect_uri: req.redirectUri,
      scope: p.provider_type === "github" ? "read:user user:email" : p.scopes.join(" "),
      state: req.state,
      code_challenge: req.codeChallenge,
      code_challenge_method: "S256",
    };
    if (p.provider_type !== "github") params.nonce = req.nonce;
    return oidc.buildAuthorizationUrl(config, params);
  }

  /** Redeems the code (PKCE verifier, state and nonce checked) and returns the account it proves. */
  async redeem(
    p: StoredProvider,
    currentUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<ProviderAccount> {
    const config = await this.configFor(p);
    if (p.provider_type === "github") {
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        idTokenExpected: false,
      });
      return githubAccount(config, this.github, tokens.access_token);
    }
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error("no ID token");
    return {
      subject: claims.sub,
      email: typeof claims.email === "string" ? claims.email.toLowerCase() : null,
      emailVerified: typeof claims.email_verified === "boolean" ? claims.email_verified : null,
      name: typeof claims.name === "string" ? claims.name : null,
    };
  }
}

async function githubAccount(config: oidc.Configuration, gh: GithubEndpoints, accessToken: string): Promise<ProviderAccount> {
  const headers = new Headers({ accept: "application/vnd.github+json" });
  const user = (await (await oidc.fetchProtectedResource(config, accessToken, new URL(gh.user), "GET", undefined, headers)).json()) as {
    id?: number;
    name?: string | null;
    login?: string;
  };
  const emails = (await (await oidc.fetchProtectedResource(config, accessToken, new URL(gh.emails), "GET", undefined, headers)).json()) as {
    email: string;
    primary: boolean;
    verified: boolean;
  }[];
  if (typeof user.id !== "number") throw new Error("no GitHub user id");
  const primary = Array.isArray(emails) ? emails.find((e) => e.primary) : undefined;
  return {
    subject: String(user.id),
    email: primary?.email.toLowerCase() ?? null,
    emailVerified: primary?.verified === true,
    name: user.name ?? user.login ?? null,
  };
}
