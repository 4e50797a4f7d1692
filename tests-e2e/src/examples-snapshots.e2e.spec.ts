import { randomBytes } from "node:crypto";
import { apiClient } from "./clients";
import { buildClientPackages } from "./client-packages";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

/**
 * examples/mail-snapshot-jest against the shared system, as examples.e2e.spec.ts runs the others:
 * its test file is loaded inside this block, so its describe block runs after this beforeAll has
 * set the environment it reads. Its team is a new one, so the first test writes the baseline and
 * the next ones compare with it. The key has team.snapshots.manage besides what the others need.
 */
describe("examples/mail-snapshot-jest against the system", () => {
  const system = SharedSystem.attach();

  beforeAll(async () => {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: {
        name: `examples-snapshots-${randomBytes(3).toString("hex")}`,
        scopes: ["team.inboxes.create", "team.inboxes.view", "team.emails.view", "team.snapshots.manage"],
      },
    });
    if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
    Object.assign(process.env, {
      BURNBOX_URL: system.gatewayUrl,
      BURNBOX_API_KEY: key.body.raw_key,
      BURNBOX_DOMAIN_ASSIGNMENT_ID: world.assignmentId,
      BURNBOX_ORG_ID: world.orgId,
      BURNBOX_TEAM_ID: world.teamId,
      BURNBOX_SMTP_HOST: "127.0.0.1",
      BURNBOX_SMTP_PORT: String(system.ports.smtp),
    });
  });

  // the example imports @burnbox/sdk as it ships (dist/), so it is built before it loads
  buildClientPackages();
  jest.requireActual("../../examples/mail-snapshot-jest/welcome-mail.test");
});
