import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { apiClient } from "./clients";
import { buildClientPackages } from "./client-packages";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

/** The environment without the variables jest sets for its workers. */
function withoutJest(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("JEST_")));
}

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
        // team.inboxes.manage: the Playwright fixture deletes its inbox after each test; team.snapshots.manage: the
        // mail snapshot example writes its baseline (the team is new, so its first test makes it)
        scopes: [
          "team.inboxes.create",
          "team.inboxes.view",
          "team.inboxes.manage",
          "team.emails.view",
          "team.webhooks.manage",
          "team.snapshots.manage",
        ],
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
  jest.requireActual("../../examples/mail-snapshot-jest/welcome-mail.test");

  // Playwright Test runs its own files, so this one goes through its command line, with the same environment
  it("when the @burnbox/playwright example runs under Playwright Test, then its sign-up and link tests pass", async () => {
    const examples = path.resolve(__dirname, "..", "..", "examples");
    const out = mkdtempSync(path.join(tmpdir(), "burnbox-pw-"));
    try {
      const report = path.join(out, "report.json");
      const inboxes = async () => {
        const res = await fetch(`${system.gatewayUrl}/api/v1/inboxes?per_page=1`, {
          headers: { authorization: `Bearer ${process.env.BURNBOX_API_KEY}` },
        });
        return ((await res.json()) as { total: number }).total;
      };
      const before = await inboxes();
      const cli = path.join(examples, "node_modules", "@playwright", "test", "cli.js");
      const args = [cli, "test", "-c", "signup-playwright-test/playwright.config.ts", "--reporter=line,json"];
      const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(process.execPath, args, {
          cwd: examples,
          // without jest's JEST_WORKER_ID, which Playwright Test takes for being loaded by jest
          env: {
            ...withoutJest(process.env),
            PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
            PLAYWRIGHT_JSON_OUTPUT_NAME: report,
            FORCE_COLOR: "0",
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (c: Buffer) => (output += c.toString()));
        child.stderr.on("data", (c: Buffer) => (output += c.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, output }));
      });
      if (run.code !== 0) throw new Error(`playwright test exited ${run.code}:\n${run.output.slice(-6000)}`);
      const stats = (JSON.parse(readFileSync(report, "utf8")) as { stats: Record<string, number> }).stats;
      expect(stats).toMatchObject({ expected: 2, unexpected: 0, flaky: 0, skipped: 0 });
      // the `inbox` fixture deleted each test's inbox when the test ended
      expect(await inboxes()).toBe(before);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
