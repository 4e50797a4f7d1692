// Runs `prisma generate` for the service in the current directory.
// Prisma 6's CLI downloads a query-engine library it never uses with `engineType = "client"`
// unless PRISMA_QUERY_ENGINE_LIBRARY names an existing file, and it wants DATABASE_URL set.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const fake = path.join(root, "node_modules", ".cache", "prisma-unused-engine.so.node");
if (!existsSync(fake)) {
  mkdirSync(path.dirname(fake), { recursive: true });
  writeFileSync(fake, "");
}
execFileSync(path.join(process.cwd(), "node_modules", ".bin", "prisma"), ["generate", ...process.argv.slice(2)], {
  stdio: ["ignore", "inherit", "inherit"],
  env: {
    ...process.env,
    PRISMA_QUERY_ENGINE_LIBRARY: fake,
    DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
  },
});
