/**
 * How the web console is served (spec extensions 4): which paths are the console's, how each file
 * may be cached, the Content-Security-Policy, and which compressed copy a client gets. Rules only;
 * the files come from adapters/console-files.ts.
 */

/**
 * No inline script anywhere (the build emits none); styles may be inline (the component library
 * sets style attributes and CSS variables). Mail HTML is the mail reader's to confine: it renders
 * it in a sandboxed frame (no scripts, no same-origin) whose own CSP blocks remote images until
 * the reader asks, so img-src allows https for that frame's sake. Frames: blob: for attachment
 * previews (PDF); connections: this origin only (the API and its WebSocket streams).
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' blob:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Hashed build output (`/assets/<name>-<hash>.js`): its content never changes under its name. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** Everything else (index.html, the favicon): always revalidated, so a deploy shows at once. */
export const REVALIDATE = "no-cache";

export const cacheControlOf = (urlPath: string): string => (urlPath.startsWith("/assets/") ? IMMUTABLE : REVALIDATE);

/**
 * A console path: any path outside `/api/` and the health and metrics paths. Paths under
 * `/assets/` name files only (a missing one is a 404, never the page: a stale chunk must fail
 * loudly rather than parse HTML as JavaScript); any other path is a page (deep link) when no file
 * has its name.
 */
export function consolePathKind(urlPath: string, reserved: readonly string[]): "none" | "file-only" | "page" {
  if (urlPath === "/api" || urlPath.startsWith("/api/")) return "none";
  if (reserved.some((r) => urlPath === r || urlPath.startsWith(`${r}/`))) return "none";
  return urlPath.startsWith("/assets/") ? "file-only" : "page";
}

export type Encoding = "br" | "gzip";

/** The best precompressed copy the client accepts (brotli, then gzip), honouring `q=0`. */
export function chooseEncoding(acceptEncoding: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  if (!acceptEncoding || available.length === 0) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const wants = (e: Encoding) => (accepted.get(e) ?? accepted.get("*") ?? 0) > 0;
  return (["br", "gzip"] as const).find((e) => available.includes(e) && wants(e));
}
