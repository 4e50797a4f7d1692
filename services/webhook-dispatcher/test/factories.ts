import { randomUUID } from "node:crypto";
import path from "node:path";
import { newEvent } from "@burnbox/service-kit/messaging";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, TEST_INTERNAL_SECRET, testInfra } from "@burnbox/test-kit";
import { loadDispatcherConfig, type DispatcherConfig } from "../src/config";

/** The codes and links the inbox service found in the mail (extensions section 2). */
export const EXTRACTED = {
  codes: [{ value: "482913", context: "Your code is 482913" }],
  links: [{ url: "https://app.example.org/verify?t=1", text: "Verify", kind: "verify" as const }],
};

/** An `email.received` event of the team, with the WebSocket summary the inbox service attaches. */
export function emailReceivedEvent(team: { orgId: string; teamId: string }, overrides: { subject?: string; receivedAt?: string } = {}) {
  const subject = overrides.subject ?? "Hi";
  const receivedAt = overrides.receivedAt ?? new Date().toISOString();
  const inboxId = randomUUID();
  const emailId = randomUUID();
  return newEvent("email.received", {
    org_id: team.orgId,
    team_id: team.teamId,
    data: {
      email_id: emailId,
      inbox_id: inboxId,
      team_id: team.teamId,
      from: "a@example.org",
      to: "b@x.test",
      subject,
      received_at: receivedAt,
      extracted: EXTRACTED,
      summary: {
        id: emailId,
        inbox_id: inboxId,
        from_address: "a@example.org",
        subject,
        snippet: "",
        has_attachments: false,
        is_read: false,
        size_bytes: 1,
        received_at: receivedAt,
      },
    },
  });
}

/** The key the tests' dispatchers seal webhook secrets with. */
export const TEST_ENCRYPTION_KEY = "4d".repeat(32);

/** The configuration of a test dispatcher: `overrides` over the defaults and the test encryption key. */
export const loadTestConfig = (overrides: Record<string, unknown>): DispatcherConfig =>
  loadDispatcherConfig({}, { encryption: { key: TEST_ENCRYPTION_KEY }, ...overrides });

/**
 * A dispatcher's configuration and infrastructure for an integration test: the test's namespace and
 * database, `localhost` receivers allowed, fast delivery polling; `overrides` win.
 */
export async function startDispatcherInfra(
  ns: string,
  dbUrl: string,
  overrides: Record<string, unknown> = {},
): Promise<{ config: DispatcherConfig; infra: Infra }> {
  const config = loadDispatcherConfig(
    {},
    {
      http: { port: 0, host: "127.0.0.1" },
      internal: { secret: TEST_INTERNAL_SECRET },
      // webhook secrets are sealed at rest (a test of the keyless refusal overrides it)
      encryption: { key: TEST_ENCRYPTION_KEY },
      nats: { url: testInfra.natsUrl, namespace: ns },
      database: { url: dbUrl },
      webhooks: { unsafe_allowed_targets: ["localhost"] },
      ...overrides,
    },
  );
  const infra = await startInfra({
    config,
    database: { url: dbUrl, migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
    logDestination: new LogCapture(),
  });
  return { config, infra };
}
