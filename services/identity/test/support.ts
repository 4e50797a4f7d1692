import path from "node:path";
import { TEST_JWT_SECRET, startTestService } from "@burnbox/test-kit";
import { startService } from "../src/app";
import { loadIdentityConfig } from "../src/config";

/** Identity in-process on the real Postgres, Redis and NATS, with a cheap argon2 cost for speed. */
export function startIdentity(extra: Record<string, unknown> = {}, opts: { now?: () => number } = {}) {
  return startTestService({
    prefix: "id",
    load: (o) => loadIdentityConfig({}, o),
    start: (config, infra) => startService(config, infra, opts),
    migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
    redis: true,
    overrides: () => ({ auth: { jwt_secret: TEST_JWT_SECRET, argon2: { memory_kib: 4096, time_cost: 1 } }, ...extra }),
  });
}
