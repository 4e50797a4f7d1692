import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

/**
 * packages/sdk-python (`burnbox`) as a Python user gets it: `pip install` of the folder into a
 * fresh virtual environment of Debian's python3 (offline: --no-build-isolation with Debian's
 * setuptools, --no-index), then its own tests with pytest: the unit tests (a local HTTP server, the
 * shared webhook vectors, the plugin run by pytester) and tests_e2e against the shared system,
 * through the pytest plugin the install registered (fixtures burnbox and burnbox_inbox). npm test
 * installs python3-pytest, python3-setuptools, python3-pip and python3-venv when missing
 * (deploy/local/test.mjs, TOOLS).
 */
const PACKAGE = path.resolve(__dirname, "..", "..", "packages", "sdk-python");
const PYTHON = process.env.BB_E2E_PYTHON ?? "/usr/bin/python3";

interface Run {
  status: number | null;
  output: string;
}

/** Runs a command to its end without blocking the runner (its control server keeps answering). */
function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? PACKAGE, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output }));
  });
}

/** The counts of pytest's summary line (`5 passed, 1 skipped in 1.2s`). */
function outcomes(output: string): Record<string, number> {
  const summary = output.trim().split("\n").pop() ?? "";
  const counts: Record<string, number> = {};
  for (const m of summary.matchAll(/(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected)/g))
    counts[m[2]!.replace(/s$/, "")] = Number(m[1]);
  return counts;
}

describe("burnbox for Python (packages/sdk-python) against the system", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let work: string;
  let python: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    if (!existsSync(PYTHON))
      throw new Error(`${PYTHON} is missing: apt-get install python3 python3-pytest python3-setuptools python3-pip python3-venv`);
    work = mkdtempSync(path.join(os.tmpdir(), "bb-sdk-python-"));
    // the folder as a clean clone has it: no build/ or egg-info left by an earlier install
    const source = path.join(work, "sdk-python");
    cpSync(PACKAGE, source, { recursive: true, filter: (p) => !/(^|\/)(build|__pycache__|\.pytest_cache|[^/]*\.egg-info)$/.test(p) });
    // its webhook tests read the vectors every client shares, beside it as in the repository
    cpSync(path.join(PACKAGE, "..", "sdk", "test-vectors"), path.join(work, "sdk", "test-vectors"), { recursive: true });
    const venv = path.join(work, "venv");
    python = path.join(venv, "bin", "python");
    // Debian's pytest comes from the system's site-packages; pip runs from the system, installing into the venv
    const install = async () => {
      const created = await run(PYTHON, ["-m", "venv", "--system-site-packages", "--without-pip", venv]);
      if (created.status !== 0) throw new Error(`python3 -m venv: ${created.output}`);
      const installed = await run(PYTHON, [
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-build-isolation",
        "--no-index",
        "--no-deps",
        source,
      ]);
      if (installed.status !== 0) throw new Error(`pip install ./packages/sdk-python: ${installed.output}`);
    };
    // a team with a domain and a key of the scopes the tests use, while pip installs
    const teamKey = async () => {
      const world = await teamWithDomain(api);
      const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
        token: world.owner.token,
        body: {
          name: `sdk-python-${randomBytes(3).toString("hex")}`,
          scopes: [
            "team.inboxes.create",
            "team.inboxes.view",
            "team.inboxes.manage",
            "team.emails.view",
            "team.domains.view",
            "team.webhooks.manage",
          ],
        },
      });
      if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
      return { world, rawKey: key.body.raw_key };
    };
    const [, { world, rawKey }] = await Promise.all([install(), teamKey()]);
    env = {
      PATH: process.env.PATH,
      HOME: work,
      PYTHONDONTWRITEBYTECODE: "1",
      // no BURNBOX_DOMAIN_ASSIGNMENT_ID: the client takes the key's first domain (GET /my/domains)
      BURNBOX_URL: system.gatewayUrl,
      BURNBOX_API_KEY: rawKey,
      BURNBOX_ORG_ID: world.orgId,
      BURNBOX_TEAM_ID: world.teamId,
      BURNBOX_SMTP_HOST: "127.0.0.1",
      BURNBOX_SMTP_PORT: String(system.ports.smtp),
    };
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  // the package's tests run from the copy, against the installed package (the copy's src/ is not on the path)
  const pytest = (dir: string) =>
    run(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", dir], { cwd: path.join(work, "sdk-python"), env });

  it("when installed with pip, then the package is typed and registers its pytest plugin", async () => {
    const r = await run(
      python,
      [
        "-c",
        "import burnbox, importlib.metadata as m, pathlib; " +
          "print(pathlib.Path(burnbox.__file__).with_name('py.typed').exists(), " +
          "[e.value for e in m.entry_points(group='pytest11') if e.name == 'burnbox'])",
      ],
      { cwd: work, env },
    );
    expect([r.status, r.output.trim()]).toEqual([0, "True ['burnbox.pytest_plugin']"]);
  });

  it("when its unit tests run, then every one passes", async () => {
    const r = await pytest("tests");
    if (r.status !== 0) throw new Error(r.output);
    expect(outcomes(r.output)).toEqual({ passed: expect.any(Number) });
  });

  it("when its end-to-end tests run against the system, then the sign-up test and the rest pass", async () => {
    const r = await pytest("tests_e2e");
    if (r.status !== 0) throw new Error(r.output);
    expect(outcomes(r.output)).toEqual({ passed: 5 });
  });
});
