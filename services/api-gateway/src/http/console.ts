import type { NextFunction, Request, Response } from "express";
import type { ConsoleFiles } from "../adapters/console-files";
import {
  cacheControlOf,
  chooseEncoding,
  consolePathKind,
  CONSOLE_CONTENT_SECURITY_POLICY,
  type Encoding,
} from "../domain/console/console-policy";

/**
 * The web console at `/` (spec extensions 4): its files by name, and index.html for every other
 * path outside `/api/` and the health and metrics paths (`reserved`), so a deep link reloads into
 * the single-page app. GET and HEAD only; anything else falls through to the 404 envelope.
 */
export function consoleHandler(files: ConsoleFiles, reserved: readonly string[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const urlPath = decodedPath(req.path);
    const kind = urlPath === undefined ? "none" : consolePathKind(urlPath, reserved);
    if (kind === "none") return next();
    const named = urlPath === "/" ? undefined : files.get(urlPath!);
    if (!named && kind === "file-only") return next();
    const file = named ?? files.index;
    const served = named ? urlPath! : "/index.html";

    const available = Object.keys(file.encoded) as Encoding[];
    const encoding = chooseEncoding(req.header("accept-encoding"), available);
    res.setHeader("Content-Type", file.contentType);
    res.setHeader("Cache-Control", cacheControlOf(served));
    res.setHeader("ETag", encoding ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag);
    if (available.length > 0) res.setHeader("Vary", "Accept-Encoding");
    if (file.contentType.startsWith("text/html")) {
      res.setHeader("Content-Security-Policy", CONSOLE_CONTENT_SECURITY_POLICY);
      res.setHeader("X-Frame-Options", "DENY");
      res.setHeader("Referrer-Policy", "same-origin");
    }
    if (encoding) res.setHeader("Content-Encoding", encoding);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    const body = encoding ? file.encoded[encoding]! : file.body;
    res.setHeader("Content-Length", String(body.length));
    res.status(200).end(req.method === "HEAD" ? undefined : body);
  };
}

function decodedPath(p: string): string | undefined {
  try {
    const d = decodeURIComponent(p);
    return d.includes("\0") || d.split("/").includes("..") ? undefined : d;
  } catch {
    return undefined;
  }
}
