/**
 * Issuers must be https. `sso.unsafe_allowed_issuers` exempts local test providers: an entry is a
 * host name (`127.0.0.1`), a `host:port` or an origin (`http://127.0.0.1:9000`).
 */
export function issuerRefusal(raw: string, unsafeAllowed: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "issuer_url must be a URL";
  }
  if (url.username || url.password) return "issuer_url must not carry credentials";
  if (url.search || url.hash) return "issuer_url must not have a query or fragment";
  if (isUnsafeAllowed(url, unsafeAllowed)) return null;
  if (url.protocol !== "https:") return "issuer_url must be https";
  return null;
}

/** Whether the issuer's host is on the operator's allow-list (exempt from https and address rules). */
export function isUnsafeAllowed(url: URL, unsafeAllowed: readonly string[]): boolean {
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return unsafeAllowed.some((entry) => entry === host || entry === url.host.toLowerCase() || entry === url.origin.toLowerCase());
}
