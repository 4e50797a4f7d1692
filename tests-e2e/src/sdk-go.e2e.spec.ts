import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, constants } from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

const MODULE_DIR = path.resolve(__dirname, "..", "..", "packages", "sdk-go");
/** Debian's golang-go (deploy/local/test.mjs installs it with the other tools it needs). */
const GO = "/usr/bin/go";

/**
 * The Go toolchain's environment: no module proxy (the module has no dependency and none can be
 * fetched here), the toolchain as installed, and its build cache in the system's temporary folder,
 * outside the repository, so a clean clone builds and a second run reuses what the first compiled.
 */
function goEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const tmp = os.tmpdir();
  return {
    ...process.env,
    GOFLAGS: "-mod=mod",
    GOPROXY: "off",
    GOTOOLCHAIN: "local",
    GOENV: "off",
    CGO_ENABLED: "0",
    GOCACHE: path.join(tmp, "burnbox-go-build"),
    GOPATH: path.join(tmp, "burnbox-go-path"),
    ...extra,
  };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: MODULE_DIR, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** One line of `go test -json` (test2json). */
interface GoTestEvent {
  Action: string;
  Package?: string;
  Test?: string;
  Output?: string;
}

/** A test's (or, without a name, a package's) outcome and the output it printed. */
interface Outcome {
  name: string;
  outcome: string | undefined;
  output: string;
}

/**
 * burnbox-go (packages/sdk-go) against the shared system: one `go test -tags integration ./...`
 * builds the module once and runs its unit tests, its examples and its integration tests (the
 * README's sign-up test among them) with a team key, its domain and the SMTP intake in the
 * environment the README names.
 */
describe("burnbox-go against the system", () => {
  const system = SharedSystem.attach();
  let events: GoTestEvent[] = [];
  let goTest: { code: number | null; stdout: string; stderr: string };

  const outcome = (pkg: string, test?: string): Outcome => {
    const mine = events.filter((e) => e.Package === pkg && e.Test === test);
    const final = mine.filter((e) => ["pass", "fail", "skip"].includes(e.Action)).pop();
    return {
      name: test ? `${pkg} ${test}` : pkg,
      outcome: final?.Action,
      output: mine.map((e) => e.Output ?? "").join("") || goTest.stderr,
    };
  };

  beforeAll(async () => {
    try {
      accessSync(GO, constants.X_OK);
    } catch {
      throw new Error(`the Go tests need Go at ${GO}: apt-get install golang-go (npm test installs it when it can)`);
    }
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: {
        name: `sdk-go-${randomBytes(3).toString("hex")}`,
        scopes: ["team.inboxes.create", "team.inboxes.manage", "team.inboxes.view", "team.emails.view"],
      },
    });
    if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
    goTest = await run(
      GO,
      ["test", "-tags", "integration", "-count=1", "-json", "./..."],
      goEnv({
        BURNBOX_URL: system.gatewayUrl,
        BURNBOX_API_KEY: key.body.raw_key,
        BURNBOX_DOMAIN_ASSIGNMENT_ID: world.assignmentId,
        BURNBOX_SMTP_HOST: "127.0.0.1",
        BURNBOX_SMTP_PORT: String(system.ports.smtp),
      }),
    );
    events = goTest.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as GoTestEvent);
  }, 300_000);

  it("the README's sign-up test passes: a fresh inbox, a code mailed over SMTP, waited for, the inbox deleted after", () => {
    expect(outcome("burnbox-go/burnboxtest", "TestSignUp")).toMatchObject({ outcome: "pass" });
    expect(outcome("burnbox-go/burnboxtest", "TestTheInboxIsDeletedWhenTheTestEnds")).toMatchObject({ outcome: "pass" });
  });

  it("the client's calls behave against the system: list and read mail, waits, timeouts, the API's error codes", () => {
    expect(outcome("burnbox-go/burnboxtest", "TestTheClientAgainstBurnBox")).toMatchObject({ outcome: "pass" });
  });

  it("every test and example of the module passes, and go test exits 0", () => {
    const tests = events.filter((e) => e.Test && ["pass", "fail", "skip"].includes(e.Action) && !e.Test.includes("/"));
    const notPassed = tests.filter((e) => e.Action !== "pass").map((e) => outcome(e.Package ?? "", e.Test));
    expect(notPassed).toEqual([]);
    // the unit tests, the checked examples and the integration tests all ran
    expect(tests.filter((e) => e.Test?.startsWith("Example")).length).toBeGreaterThanOrEqual(3);
    expect(tests.length).toBeGreaterThanOrEqual(20);
    expect({ ...outcome("burnbox-go"), code: goTest.code }).toMatchObject({ outcome: "pass", code: 0 });
    expect(outcome("burnbox-go/burnboxtest")).toMatchObject({ outcome: "pass" });
  });

  it("the sources are as gofmt writes them", async () => {
    // gofmt beside go (Debian's /usr/bin/gofmt); -l lists the files it would change
    const gofmt = await run(path.join(path.dirname(GO), "gofmt"), ["-l", "."], goEnv({}));
    expect({ code: gofmt.code, unformatted: gofmt.stdout.split("\n").filter(Boolean), stderr: gofmt.stderr }).toEqual({
      code: 0,
      unformatted: [],
      stderr: "",
    });
  });
});
