import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

const SDK_JAVA_DIR = path.resolve(__dirname, "..", "..", "packages", "sdk-java");
const MVN = process.env.BB_E2E_MVN ?? "/usr/bin/mvn";
/** Debian's packaged artifacts: the build runs offline against them (packages/sdk-java/README.md). */
const MAVEN_REPO = "/usr/share/maven-repo";

interface Suite {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/** Surefire's per-class reports (target/surefire-reports/TEST-<class>.xml), by class. */
function surefireReports(): Map<string, Suite> {
  const dir = path.join(SDK_JAVA_DIR, "target", "surefire-reports");
  const suites = new Map<string, Suite>();
  if (!existsSync(dir)) return suites;
  for (const file of readdirSync(dir).filter((f) => /^TEST-.+\.xml$/.test(f))) {
    const head = /<testsuite\b[^>]*>/.exec(readFileSync(path.join(dir, file), "utf8"))?.[0] ?? "";
    const attr = (name: string) => Number(new RegExp(`\\s${name}="(\\d+)"`).exec(head)?.[1] ?? NaN);
    const name = /\sname="([^"]+)"/.exec(head)?.[1] ?? file;
    suites.set(name, { tests: attr("tests"), failures: attr("failures"), errors: attr("errors"), skipped: attr("skipped") });
  }
  return suites;
}

/**
 * burnbox-java's own Maven build against the shared system: `mvn test`, offline against Debian's
 * artifacts, with BURNBOX_URL, a team key, its domain and the SMTP intake in the environment, so its
 * unit tests and its live tests (the README's sign-up example among them) run in one go.
 */
describe("burnbox-java (Maven, JUnit 5) against the system", () => {
  const system = SharedSystem.attach();
  let build: { code: number | null; output: string; ms: number };
  let suites: Map<string, Suite>;
  let listInboxes: () => Promise<{ status: number; body: { data: unknown[]; total: number } }>;

  beforeAll(async () => {
    if (!existsSync(MVN)) throw new Error(`${MVN} is missing: apt-get install default-jdk-headless maven (npm test installs it)`);
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: {
        name: `sdk-java-${randomBytes(3).toString("hex")}`,
        scopes: ["team.inboxes.create", "team.inboxes.view", "team.inboxes.manage", "team.emails.view", "team.webhooks.manage"],
      },
    });
    if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
    listInboxes = () => api("GET", "/inboxes?per_page=100", { token: key.body.raw_key });

    // a class left over from an earlier build in target/ must not run (Debian's clean plugin does not resolve offline)
    rmSync(path.join(SDK_JAVA_DIR, "target"), { recursive: true, force: true });
    const started = Date.now();
    build = await new Promise((resolve, reject) => {
      const child = spawn(MVN, ["-o", "-B", "-q", `-Dmaven.repo.local=${MAVEN_REPO}`, "test"], {
        cwd: SDK_JAVA_DIR,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...(process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : {}),
          BURNBOX_URL: system.gatewayUrl,
          BURNBOX_API_KEY: key.body.raw_key,
          BURNBOX_DOMAIN_ASSIGNMENT_ID: world.assignmentId,
          BURNBOX_ORG_ID: world.orgId,
          BURNBOX_TEAM_ID: world.teamId,
          BURNBOX_SMTP_HOST: "127.0.0.1",
          BURNBOX_SMTP_PORT: String(system.ports.smtp),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, output, ms: Date.now() - started }));
    });
    suites = surefireReports();
  }, 300_000);

  const suite = (name: string): Suite => {
    const s = suites.get(name);
    if (!s) throw new Error(`no surefire report for ${name} (mvn exited ${build.code}):\n${build.output.slice(-4000)}`);
    return s;
  };

  it("when mvn test runs with BurnBox in the environment, then the build passes", () => {
    if (build.code !== 0) throw new Error(`mvn test exited ${build.code} after ${build.ms} ms:\n${build.output.slice(-6000)}`);
    expect(build.code).toBe(0);
  });

  it("when it runs, then the unit tests (a local HttpServer, the webhook signature and replay guard, the JUnit extension) all pass", () => {
    expect(suite("dev.burnbox.BurnBoxTest")).toMatchObject({ failures: 0, errors: 0, skipped: 0 });
    expect(suite("dev.burnbox.BurnBoxTest").tests).toBeGreaterThanOrEqual(19);
    expect(suite("dev.burnbox.WebhooksTest")).toMatchObject({ tests: 6, failures: 0, errors: 0, skipped: 0 });
    expect(suite("dev.burnbox.ReplayGuardTest")).toMatchObject({ tests: 4, failures: 0, errors: 0, skipped: 0 });
    // its test of the missing configuration is off while BURNBOX_URL is set: the extension would find it
    expect(suite("dev.burnbox.junit.BurnBoxExtensionTest")).toMatchObject({ tests: 3, failures: 0, errors: 0, skipped: 1 });
  });

  it("when the README's sign-up test runs, then the code mailed over SMTP is waited for and verifies", () => {
    expect(suite("dev.burnbox.live.SignUpTest")).toEqual({ tests: 1, failures: 0, errors: 0, skipped: 0 });
  });

  it("when the live tests run, then inboxes, mail, waits, codes, links, error codes and a real webhook delivery all check out, none skipped", () => {
    expect(suite("dev.burnbox.live.LiveBurnBoxTest")).toEqual({ tests: 5, failures: 0, errors: 0, skipped: 0 });
  });

  it("when the build is over, then every inbox the extension gave its tests is deleted", async () => {
    expect(suite("dev.burnbox.live.SignUpTest").tests).toBe(1);
    const left = await listInboxes();
    expect(left.status).toBe(200);
    expect(left.body.total).toBe(0);
  });
});
