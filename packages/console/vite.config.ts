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

export default defineConfig({
  plugins: [react(), precompress()],
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
