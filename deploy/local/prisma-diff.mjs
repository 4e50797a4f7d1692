// Prints the SQL that takes the current migrations (or an empty database) to the schema.
// Usage (in a service dir): pnpm db:diff > prisma/migrations/0002_name/migration.sql
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const fake = path.join(root, "node_modules", ".cache", "prisma-unused-engine.so.node");
if (!existsSync(fake)) {
  mkdirSync(path.dirname(fake), { recursive: true });
  writeFileSync(fake, "");
}
const env = {
  ...process.env,
  PRISMA_QUERY_ENGINE_LIBRARY: fake,
  DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
const migrations = path.join(process.cwd(), "prisma", "migrations");
const existing = existsSync(migrations)
  ? readdirSync(migrations)
      .filter((d) => !d.startsWith("."))
      .sort()
  : [];
let from = ["--from-empty"];
if (existing.length > 0) {
  // Diffing from the migrations themselves needs a shadow database; we diff from the schema
  // snapshot that `--snapshot` saved beside the migrations when the last one was written.
  const snapshot = path.join(migrations, "schema.snapshot.prisma");
  if (existsSync(snapshot)) from = ["--from-schema-datamodel", snapshot];
}
const out = execFileSync(
  path.join(process.cwd(), "node_modules", ".bin", "prisma"),
  ["migrate", "diff", ...from, "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
  { env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
process.stdout.write(out);
if (process.argv.includes("--snapshot")) {
  writeFileSync(path.join(migrations, "schema.snapshot.prisma"), readFileSync("prisma/schema.prisma", "utf8"));
}
