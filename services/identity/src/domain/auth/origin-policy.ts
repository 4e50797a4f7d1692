/** What the origin check needs of the configuration (identity's). */
export interface OriginSettings {
  base_url: string;
  cors: { allowed_origins: string[] };
  deployment: { mode: "development" | "production" };
}

const LOOPBACK_SPELLINGS = ["localhost", "127.0.0.1", "[::1]"];

function isLoopback(hostname: string): boolean {
  return LOOPBACK_SPELLINGS.includes(hostname.toLowerCase());
}

/**
 * The browser origins cookie-mode requests may come from: the base URL's, and cors.allowed_origins.
 * In local mode (deployment.mode development, base URL on a loopback name, as under `npm start`)
 * every loopback spelling of it counts too (localhost, 127.0.0.1, [::1], same scheme and port):
 * they all name this machine, and a new user opens whichever they type.
 */
export function allowedOrigins(config: OriginSettings): Set<string> {
  const base = new URL(config.base_url);
  const allowed = new Set([base.origin, ...config.cors.allowed_origins.map((o) => o.replace(/\/+$/, ""))]);
  if (config.deployment.mode !== "production" && isLoopback(base.hostname)) {
    for (const host of LOOPBACK_SPELLINGS) allowed.add(`${base.protocol}//${host}${base.port ? `:${base.port}` : ""}`);
  }
  return allowed;
}

/**
 * Why a cookie-mode request from `origin` is refused, in words that name the origin expected and
 * the settings to change; null when it is allowed (or the request names no origin: not a browser's).
 */
export function originRefusal(config: OriginSettings, origin: string | null | undefined): string | null {
  if (!origin || allowedOrigins(config).has(origin)) return null;
  const expected = new URL(config.base_url).origin;
  return (
    `origin ${origin} is not allowed: this installation expects ${expected} (identity's base_url, BB_BASE_URL). ` +
    `Open the console at ${expected}, or set BB_BASE_URL to the address people use, or add ${origin} to cors.allowed_origins (BB_CORS_ALLOWED_ORIGINS)`
  );
}
