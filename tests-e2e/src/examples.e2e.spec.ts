import { randomBytes } from "node:crypto";
import { apiClient } from "./clients";
import { buildClientPackages } from "./client-packages";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

/**
 * examples/ run here, against the shared system: their test files are loaded inside this block,
 * so their describe blocks run after this beforeAll has set the environment they read (a team with
 * a domain, an API key, the gateway and the SMTP intake). One system, and the Playwright example
 * launches the one browser.
 */
describe("examples/ against the system", () => {
  const system = SharedSystem.attach();

  beforeAll(async () => {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: {
        name: `examples-${randomBytes(3).toString("hex")}`,
        scopes: ["team.inboxes.create", "team.inboxes.view", "team.emails.view", "team.webhooks.manage"],
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

  // the examples import @burnbox/sdk as it ships (dist/), so it is built before they load
  buildClientPackages();
  jest.requireActual("../../examples/sdk-jest/three-lines.test");
  jest.requireActual("../../examples/signup-playwright/signup.test");
  jest.requireActual("../../examples/webhook-receiver/receiver.test");
});
