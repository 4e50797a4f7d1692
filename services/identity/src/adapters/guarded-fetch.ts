import type * as oidc from "openid-client";
import { EMPTY_ALLOWLIST, RefusedTarget, guardedRequest, parseAllowlist, type HostResolver } from "@burnbox/service-kit/security";
import { isUnsafeAllowed } from "../domain/sso/issuer-policy";

/** The largest answer an identity provider may send (discovery, JWKS, tokens, user info). */
const MAX_BYTES = 1024 * 1024;

function bodyOf(body: oidc.FetchBody): string | Buffer | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new RefusedTarget("streamed request bodies are not sent to identity providers");
}

/**
 * openid-client's `customFetch` through the kit's outbound guard, for every request of an SSO
 * login (discovery, JWKS, token, user info, GitHub's API): each URL's host is resolved through
 * `dns.servers`, held to the address rules (an endpoint the discovery document names is checked
 * like the issuer), connected to at the checked address, never redirected. A URL whose origin is
 * on `sso.unsafe_allowed_issuers` is exempt (local test providers only).
 */
export function guardedFetch(opts: {
  resolve: HostResolver;
  unsafeAllowedIssuers: readonly string[];
  timeoutMs: number;
}): oidc.CustomFetch {
  return async (url, init) => {
    const target = new URL(url);
    const exempt = isUnsafeAllowed(target, opts.unsafeAllowedIssuers);
    const res = await guardedRequest(target, {
      policy: { resolve: opts.resolve, allowed: exempt ? parseAllowlist([target.hostname]) : EMPTY_ALLOWLIST },
      method: init.method,
      headers: init.headers,
      body: bodyOf(init.body),
      timeoutMs: opts.timeoutMs,
      maxBytes: MAX_BYTES,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const empty = res.status === 204 || res.status === 304 || init.method === "HEAD";
    return new Response(empty ? null : res.body, { status: res.status, headers });
  };
}
