// The console's build: static files in dist/ that the api-gateway serves at / (spec extensions 4).
// Hashed files land in dist/assets/ (served immutable); each text file also gets a .br and a .gz
// beside it, so the gateway sends compressed bytes without compressing per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

/** Writes `<file>.br` and `<file>.gz` for each text file of the output worth compressing. */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "burnbox-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = path.join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || file.endsWith(".map")) continue;
        const bytes = readFileSync(file);
        if (bytes.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/**
 * The entry (src/main.tsx) is small: the boot, which starts the session and asks for the setup
 * status, then a dynamic import of src/app/start.tsx (React, the router, the component library,
 * the shell). The browser would learn of start's chunks only once the entry has run; this puts a
 * `<link rel="modulepreload">` for each of them (and a stylesheet link for their CSS) into
 * index.html, so they download beside the entry while the boot's requests are on the wire.
 */
function preloadStart(): Plugin {
  const start = path.resolve(here, "src/app/start.tsx");
  return {
    name: "burnbox-preload-start",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const bundle = ctx.bundle ?? {};
        const chunks = Object.values(bundle).filter((o) => o.type === "chunk");
        const root = chunks.find((c) => c.facadeModuleId === start);
        if (!root) throw new Error("burnbox-preload-start: no chunk for src/app/start.tsx");
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = chunks.find((c) => c.fileName === fileName);
          // the entry is the page's own script already
          if (!chunk || chunk.isEntry || files.has(fileName)) return;
          files.add(fileName);
          for (const f of chunk.viteMetadata?.importedCss ?? []) css.add(f);
          chunk.imports.forEach(visit);
        };
        visit(root.fileName);
        return [
          ...[...css].map((f) => ({
            tag: "link",
            attrs: { rel: "stylesheet", crossorigin: true, href: `/${f}` },
            injectTo: "head" as const,
          })),
          ...[...files].map((f) => ({
            tag: "link",
            attrs: { rel: "modulepreload", crossorigin: true, href: `/${f}` },
            injectTo: "head" as const,
          })),
        ];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadStart(), precompress()],
  resolve: {
    // the SDK's TypeScript source: no stale dist between an SDK change and the console
    alias: { "@burnbox/sdk": path.resolve(here, "../sdk/src/index.ts") },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    // no inline module preload polyfill: the page runs no inline script (the gateway's CSP)
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // the first page carries React, the router and the component library in one chunk (~200 KB gzipped)
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `pnpm --filter @burnbox/console dev` beside a running system (`pnpm start`, gateway on 8080)
    proxy: { "/api": { target: process.env.BURNBOX_URL ?? "http://127.0.0.1:8080", ws: true, changeOrigin: false } },
  },
});
