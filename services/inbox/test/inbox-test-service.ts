import { tmpdir } from "node:os";
import path from "node:path";
import type { Infra } from "@burnbox/service-kit";
import { startTestService, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadInboxConfig, type InboxConfig } from "../src/config";

export const MIGRATIONS_DIR = path.join(__dirname, "..", "prisma", "migrations");

/**
 * The inbox service as its integration tests start it, on the real Postgres, Redis and NATS: SMTP
 * on a free loopback port, local storage in a temporary folder of its own, the cleanup worker out
 * of the way. `overrides` adds sections, or replaces one whole (`storage`, say); `start` replaces
 * the plain `startService` (a clock, say).
 */
export function startInboxTestService(
  prefix: string,
  opts: {
    start?: (config: InboxConfig, infra: Infra) => Promise<RunningService>;
    overrides?: (ns: string) => Record<string, unknown>;
  } = {},
): Promise<TestService<InboxConfig, RunningService>> {
  return startTestService({
    prefix,
    load: (o) => loadInboxConfig({}, o),
    start: opts.start ?? ((c, i) => startService(c, i)),
    migrationsDir: MIGRATIONS_DIR,
    overrides: ({ ns }) => ({
      smtp: { port: 0, host: "127.0.0.1" },
      storage: { local_path: path.join(tmpdir(), `bb-${ns}`) },
      workers: { cleanup_interval: "1h" },
      ...opts.overrides?.(ns),
    }),
  });
}
