import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { Infra } from "@burnbox/service-kit/runtime";
import { startTestService, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadInboxConfig, type InboxConfig } from "../src/config";
import type { BulkEmail } from "../src/data/bulk-import.repository";

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
    /** Connect Redis too (the per-user wait cap, the SMTP behaviours' attempt counts). */
    redis?: boolean;
  } = {},
): Promise<TestService<InboxConfig, RunningService>> {
  return startTestService({
    prefix,
    load: (o) => loadInboxConfig({}, o),
    start: opts.start ?? ((c, i) => startService(c, i)),
    migrationsDir: MIGRATIONS_DIR,
    ...(opts.redis ? { redis: true } : {}),
    overrides: ({ ns }) => ({
      smtp: { port: 0, host: "127.0.0.1" },
      storage: { local_path: path.join(tmpdir(), `bb-${ns}`) },
      workers: { cleanup_interval: "1h" },
      ...opts.overrides?.(ns),
    }),
  });
}

/**
 * An inbox written straight through the service's unit of work (no tenancy behind it):
 * `<prefix>-<random>@<domain>` in `scope`, with a 10-minute life from `createdAt` (now) unless
 * `expiresAt` says otherwise.
 */
export async function createTestInbox(
  deps: RunningService["deps"],
  scope: TeamScope,
  opts: { prefix: string; domain: string; createdAt?: Date; expiresAt?: Date },
): Promise<{ id: string; fullAddress: string }> {
  const address = `${opts.prefix}-${randomUUID().slice(0, 8)}`;
  const fullAddress = `${address}@${opts.domain}`;
  const createdAt = opts.createdAt ?? new Date();
  const created = await deps.data.write((repos) =>
    repos.inboxes.create(scope, {
      id: randomUUID(),
      domainId: randomUUID(),
      domainAssignmentId: randomUUID(),
      createdBy: randomUUID(),
      address,
      domainName: opts.domain,
      fullAddress,
      private: false,
      createdAt,
      expiresAt: opts.expiresAt ?? new Date(createdAt.getTime() + 600_000),
      ttlMs: 600_000,
    }),
  );
  return { id: created.id, fullAddress };
}

/**
 * An email row for `BulkImportRepository.insertEmails` in `inboxId`, sent to `box@<domain>` by
 * alice@shop.example: unread, no attachment, no raw file, received now, subject and snippet
 * "hello"; `over` sets the rest.
 */
export function bulkEmail(inboxId: string, domain: string, over: Partial<BulkEmail> = {}): BulkEmail {
  const id = over.id ?? randomUUID();
  return {
    id,
    inboxId,
    messageId: `<${id}@${domain}>`,
    fromAddress: "alice@shop.example",
    toAddress: `box@${domain}`,
    subject: "hello",
    snippet: "hello",
    bodyText: "hello there",
    bodyHtml: null,
    sizeBytes: 1000,
    isRead: false,
    hasAttachments: false,
    rawKey: null,
    receivedAt: new Date(),
    ...over,
  };
}
