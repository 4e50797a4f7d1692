import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, SmtpSession } from "./clients";
import { buildClientPackages, CLI_DIR } from "./client-packages";
import { SharedSystem } from "./shared-system";
import { signupMail } from "./snapshot-mail";
import { createInbox, STRONG_PASSWORD, teamWithDomain } from "./world";

const CLI = path.join(CLI_DIR, "dist", "cli.js");

/**
 * `burnbox snapshot save|compare|ls` (extensions section 12), compiled and run as a child process
 * against the shared system: a sign-up mail saved as a baseline with a mask for the name, the next
 * one compared (exit 0), a broken one compared (exit 3 with the readable diff), the team's list.
 */
describe("burnbox snapshot, the command line", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let inbox: { id: string; full_address: string };
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const name = `cli-signup-${randomBytes(3).toString("hex")}`;

  const burnbox = (args: string[], opts: { input?: string } = {}) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { env, input: opts.input ?? "", encoding: "utf8" });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  /** Mails `raw` over SMTP and answers the new email's id, as `burnbox ls <inbox>` lists it. */
  async function deliver(raw: string): Promise<string> {
    const ids = () =>
      burnbox(["ls", inbox.id, "--per-page", "100"])
        .out.trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t")[0]!);
    const known = new Set(ids());
    const smtp = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await smtp.command("MAIL FROM:<noreply@acme.example.org>")).code).toBe(250);
      expect((await smtp.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
      expect((await smtp.data(raw)).code).toBe(250);
    } finally {
      await smtp.quit();
    }
    return waitFor(async () => ids().find((id) => !known.has(id)) ?? null, { what: "the mailed sign-up" });
  }

  beforeAll(async () => {
    buildClientPackages();
    world = await teamWithDomain(api);
    inbox = await createInbox(api, world.owner.token, world.assignmentId, `cli-snap-${randomBytes(3).toString("hex")}`);
    dir = mkdtempSync(path.join(tmpdir(), "burnbox-cli-snap-"));
    env = { PATH: process.env.PATH, BURNBOX_CONFIG: path.join(dir, "config.json"), BURNBOX_URL: system.gatewayUrl };
    const login = burnbox(["login", "--email", world.owner.email, "--password-stdin"], { input: `${STRONG_PASSWORD}\n` });
    if (login.code !== 0) throw new Error(`login: ${login.code} ${login.err}`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let baseline: string;
  let snapshotId: string;

  it("when an email is saved with a mask, then the snapshot is created (id, name, created) and a second save re-baselines it", async () => {
    baseline = await deliver(
      signupMail(inbox.full_address, { name: "Alice", code: "482913", token: "tok_9f8e7d6c5b4a3f2e1d0c", date: "2026-12-02 09:15" }),
    );
    const saved = burnbox(["snapshot", "save", baseline, name, "--mask", "\\b(Alice|Bob|Carol)\\b=>[name]"]);
    expect({ code: saved.code, err: saved.err }).toEqual({ code: 0, err: "" });
    const [id, shownName, how] = saved.out.trim().split("\t");
    expect([shownName, how]).toEqual([name, "created"]);
    snapshotId = id!;
    const again = burnbox(["snapshot", "save", baseline, name, "--mask", "\\b(Alice|Bob|Carol)\\b=>[name]", "--json"]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ id: snapshotId, name, subject: "Welcome to Acme, [name]" });
  });

  it("when the same template comes with another name, code, token and date, then compare prints match with 0.00% for every picture and exits 0", async () => {
    const next = await deliver(
      signupMail(inbox.full_address, { name: "Bob", code: "105377", token: "tok_00112233445566778899", date: "2026-12-09 17:42" }),
    );
    const r = burnbox(["snapshot", "compare", next, name]);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
    const lines = r.out.trim().split("\n");
    expect(lines[0]!.split("\t").slice(1)).toEqual(["match", name]);
    expect(lines.slice(1).sort()).toEqual(
      ["375px\tdark\t0.00% changed", "375px\tlight\t0.00% changed", "600px\tdark\t0.00% changed", "600px\tlight\t0.00% changed"].sort(),
    );
  });

  it("when a variable is left unfilled, then compare exits 3 and prints the subject, the hunk with {{name}} and the diff pictures; --json has match false", async () => {
    const broken = await deliver(
      signupMail(inbox.full_address, { name: "{{name}}", code: "318822", token: "tok_ffeeddccbbaa99887766", date: "2026-12-11 10:30" }),
    );
    // with a threshold of 0 the pictures that changed at all are listed too, each with its diff picture
    const r = burnbox(["snapshot", "compare", broken, name, "--max-changed-ratio", "0"]);
    expect(r.code).toBe(3);
    expect(r.out.split("\n")).toEqual(
      expect.arrayContaining([
        "subject:",
        "    - Welcome to Acme, [name]",
        "    + Welcome to Acme, {{name}}",
        "    -Hi [name],",
        "    +Hi {{name}},",
      ]),
    );
    expect(r.out).toContain(`${system.gatewayUrl}/api/v1/orgs/${world.orgId}/teams/${world.teamId}/snapshots/${snapshotId}/images/diff/`);
    expect(r.err.trim()).toBe(`burnbox: email ${broken} does not match snapshot "${name}"`);
    const asJson = burnbox(["snapshot", "compare", broken, name, "--json"]);
    expect(asJson.code).toBe(3);
    expect(JSON.parse(asJson.out)).toMatchObject({ match: false, subject: { equal: false, actual: "Welcome to Acme, {{name}}" } });
  });

  it("when the team's snapshots are listed, then the row shows the latest comparison; an unknown snapshot name is exit 1 with the 404", () => {
    const ls = burnbox(["snapshot", "ls", "--org", world.orgId, "--team", world.teamId]);
    expect(ls.code).toBe(0);
    expect(ls.out.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^${snapshotId}\t${name}\t${baseline}\t\\S+\tdiffers$`))]);
    const byName = burnbox(["snapshot", "ls", "--org", world.orgId, "--team", world.teamId, "--name", "no-such", "--json"]);
    expect(JSON.parse(byName.out)).toMatchObject({ data: [] });
    const unknown = burnbox(["snapshot", "compare", baseline, "no-such"]);
    expect(unknown).toMatchObject({ code: 1, err: expect.stringContaining("404") });
  });

  it("when help is asked or a command misused, then help is 0 and usage 64", () => {
    for (const cmd of [["snapshot"], ["snapshot", "save"], ["snapshot", "compare"], ["snapshot", "ls"]]) {
      const help = burnbox([...cmd, "--help"]);
      expect({ cmd, code: help.code }).toEqual({ cmd, code: 0 });
      expect(help.out).toContain("Usage: burnbox snapshot");
    }
    expect(burnbox(["snapshot", "compare", baseline]).code).toBe(64);
    expect(burnbox(["snapshot", "compare", baseline, name, "--max-changed-ratio", "-1"]).code).toBe(64);
    expect(burnbox(["--help"]).out).toContain("3 an email differs from its snapshot");
  });
});
