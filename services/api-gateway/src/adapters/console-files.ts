import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Encoding } from "../domain/console/console-policy";

/** One file of the built console, read into memory with its precompressed copies (`.br`, `.gz`). */
export interface ConsoleFile {
  body: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
  contentType: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/**
 * The console's build output (packages/console, `vite build`), read once at start: a few hundred
 * kilobytes, so every request is answered from memory. Keys are URL paths (`/index.html`,
 * `/assets/index-3f2a.js`); the `.br`/`.gz` copies ride along with the file they compress.
 */
export class ConsoleFiles {
  private constructor(
    readonly dir: string,
    private readonly files: Map<string, ConsoleFile>,
  ) {}

  /** The files under `dir`, or null when there is no built console there (no index.html). */
  static load(dir: string): ConsoleFiles | null {
    if (!existsSync(path.join(dir, "index.html"))) return null;
    const files = new Map<string, ConsoleFile>();
    const walk = (abs: string): string[] =>
      readdirSync(abs).flatMap((name) => {
        const file = path.join(abs, name);
        return statSync(file).isDirectory() ? walk(file) : [file];
      });
    const all = walk(dir);
    const present = new Set(all);
    for (const file of all) {
      if (file.endsWith(".br") || file.endsWith(".gz") || file.endsWith(".map")) continue;
      const body = readFileSync(file);
      const encoded: ConsoleFile["encoded"] = {};
      if (present.has(`${file}.br`)) encoded.br = readFileSync(`${file}.br`);
      if (present.has(`${file}.gz`)) encoded.gzip = readFileSync(`${file}.gz`);
      const urlPath = `/${path.relative(dir, file).split(path.sep).join("/")}`;
      files.set(urlPath, {
        body,
        encoded,
        contentType: TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
        etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      });
    }
    return new ConsoleFiles(dir, files);
  }

  get(urlPath: string): ConsoleFile | undefined {
    return this.files.get(urlPath);
  }

  get index(): ConsoleFile {
    return this.files.get("/index.html")!;
  }
}
