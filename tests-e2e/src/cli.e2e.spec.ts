import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { buildClientPackages, CLI_DIR } from "./client-packages";
import { SharedSystem } from "./shared-system";
import { TRUSTED_DOMAIN } from "./system";
import { STRONG_PASSWORD, teamWithDomain } from "./world";

const CLI = path.join(CLI_DIR, "dist", "cli.js");

/** The `burnbox` command line, compiled, run as a child process against the shared system. */
describe("burnbox, the command line", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  const burnbox = (args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { env: opts.env ?? env, input: opts.input ?? "", encoding: "utf8" });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  /** As `burnbox`, without blocking this process (for a test that serves HTTP to the CLI itself). */
  const burnboxAsync = (args: string[], runEnv: NodeJS.ProcessEnv = env) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { env: runEnv, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      child.on("close", (code) => resolve({ code, out, err }));
    });
  const mail = async (to: string, subject: string, text: string) => {
    const r = await sendMail(system.ports.smtp, { from: "noreply@acme.example", to, subject, text });
    expect(r.data?.code).toBe(250);
  };
  const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;

  beforeAll(async () => {
    buildClientPackages();
    world = await teamWithDomain(api);
    dir = mkdtempSync(path.join(tmpdir(), "burnbox-cli-"));
    env = { PATH: process.env.PATH, BURNBOX_CONFIG: path.join(dir, "config.json"), BURNBOX_URL: system.gatewayUrl };
    const login = burnbox(["login", "--email", world.owner.email, "--password-stdin"], { input: `${STRONG_PASSWORD}\n` });
    if (login.code !== 0) throw new Error(`login: ${login.code} ${login.err}`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("when logged in, then the config file holds the tokens under the URL's origin, readable by its owner only", () => {
    const file = path.join(dir, "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      base_url: system.gatewayUrl,
      logins: { [new URL(system.gatewayUrl).origin]: { access_token: expect.any(String), refresh_token: expect.any(String) } },
    });
  });

  it("when an inbox is created and mailed, then ls lists it and its email and read prints the email", async () => {
    const created = burnbox(["inbox", "create", "--domain-assignment", world.assignmentId, "--alias", alias("cli")]);
    expect(created.code).toBe(0);
    const [id, address] = created.out.trim().split("\t");
    expect(address).toMatch(new RegExp(`@${world.domainName.replace(/\./g, "\\.")}$`));

    expect(burnbox(["ls"]).out).toContain(`${id}\t${address}`);
    await mail(address!, "CLI subject", "Body read by the command line");
    const emails = await waitFor(async () => {
      const r = burnbox(["ls", id!]);
      return r.code === 0 && r.out.trim() !== "" ? r.out.trim().split("\n") : null;
    });
    expect(emails).toHaveLength(1);
    const [emailId, , from, subject] = emails[0]!.split("\t");
    expect([from, subject]).toEqual(["noreply@acme.example", "CLI subject"]);

    const read = burnbox(["read", emailId!]);
    expect(read.code).toBe(0);
    expect(read.out).toContain("Subject: CLI subject");
    expect(read.out).toContain("Body read by the command line");
    expect(JSON.parse(burnbox(["read", emailId!, "--json"]).out)).toMatchObject({ id: emailId, subject: "CLI subject" });
  });

  it("when BURNBOX_API_KEY is set, then it is used instead of the stored login", async () => {
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: alias("cli"), scopes: ["team.inboxes.view"] },
    });
    const noConfig = { PATH: process.env.PATH, BURNBOX_CONFIG: path.join(dir, "none.json"), BURNBOX_URL: system.gatewayUrl };
    expect(burnbox(["ls", "--json"], { env: { ...noConfig, BURNBOX_API_KEY: key.body.raw_key } })).toMatchObject({ code: 0 });
    expect(burnbox(["ls"], { env: noConfig })).toMatchObject({ code: 1, err: expect.stringContaining("not logged in") });
    const created = burnbox(["inbox", "create", "--domain-assignment", world.assignmentId], {
      env: { ...noConfig, BURNBOX_API_KEY: key.body.raw_key },
    });
    expect(created).toMatchObject({ code: 1, err: expect.stringContaining("403") });
  });

  it("when tail follows an inbox and a mail arrives, then it prints the email's line; SIGINT ends it with 0", async () => {
    const inbox = burnbox(["inbox", "create", "--domain-assignment", world.assignmentId, "--json"]);
    const { id, full_address } = JSON.parse(inbox.out) as { id: string; full_address: string };
    const child = spawn(process.execPath, [CLI, "tail", id], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await waitFor(async () => err.includes("following") || null, { what: "tail to open" });
      await mail(full_address, "Tailed mail", "live");
      await waitFor(async () => out.includes("Tailed mail") || null, { what: "the tailed line" });
      expect(out.trim().split("\t").slice(2)).toEqual(["noreply@acme.example", "Tailed mail"]);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
  });

  it("when a mail's subject and body hold terminal escape sequences, then ls, read and wait print them without, and --json keeps them escaped", async () => {
    const inbox = JSON.parse(burnbox(["inbox", "create", "--domain-assignment", world.assignmentId, "--json"]).out) as {
      id: string;
      full_address: string;
    };
    // set the window title, clear the screen, write the clipboard (OSC 52), colour, a C1 CSI, a bare CR
    const subject = "Hi \x1b]0;pwned\x07\x1b[2Jthere\u009b2J";
    const body = "first line\r\n\x1b]52;c;ZXZpbA==\x07second\tcolumn \x1b[31mred\x1b[0m";
    await mail(inbox.full_address, subject, body);
    const listed = await waitFor(async () => {
      const r = burnbox(["ls", inbox.id]);
      return r.code === 0 && r.out.trim() !== "" ? r.out : null;
    });
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    expect(listed).not.toMatch(controls);
    const [emailId, , , shown] = listed.trim().split("\t");
    expect(shown).toBe("Hi there");

    const read = burnbox(["read", emailId!]);
    expect(read.code).toBe(0);
    expect(read.out).not.toMatch(controls);
    expect(read.out).toContain("Subject: Hi there\n");
    expect(read.out).toMatch(/first line\n+second\tcolumn red\n/);
    const waited = burnbox(["wait", inbox.id, "--timeout", "5s"]);
    expect(waited).toMatchObject({ code: 0, out: expect.stringContaining("\tHi there\n") });
    expect(waited.out).not.toMatch(controls);

    const asJson = burnbox(["read", emailId!, "--json"]);
    expect(asJson.out).not.toMatch(controls);
    expect(asJson.out).toContain("\\u001b]0;pwned\\u0007");
    const parsed = JSON.parse(asJson.out) as { subject: string; body_text: string };
    expect(parsed.subject).toBe(subject);
    expect(parsed.body_text).toContain("\x1b]52;c;ZXZpbA==\x07");
  });

  it("when the stored login was made for this BurnBox, then a command aimed at another URL sends it nothing and says to log in there", async () => {
    const seen: Array<string | undefined> = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: [], pagination: {} }));
    });
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", () => r()));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const viaFlag = await burnboxAsync(["ls", "--url", otherUrl]);
      expect(viaFlag).toMatchObject({ code: 1, err: expect.stringContaining(`not logged in to ${otherUrl}`) });
      expect(viaFlag.err).toContain("burnbox login");
      const viaEnv = await burnboxAsync(["ls"], { ...env, BURNBOX_URL: otherUrl });
      expect(viaEnv.code).toBe(1);
      // a file written before logins were tied to their URL: its tokens belong to its base_url only
      const legacy = path.join(dir, "legacy.json");
      const stored = JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8")) as Record<string, unknown>;
      const logins = stored.logins as Record<string, { access_token: string }>;
      const token = logins[new URL(system.gatewayUrl).origin]!.access_token;
      writeFileSync(legacy, JSON.stringify({ base_url: system.gatewayUrl, access_token: token }), { mode: 0o600 });
      const legacyOther = await burnboxAsync(["ls", "--url", otherUrl], { ...env, BURNBOX_CONFIG: legacy });
      expect(legacyOther.code).toBe(1);
      expect(seen.filter((a) => a !== undefined)).toEqual([]);
      // the same logins still work where they were made
      expect((await burnboxAsync(["ls"], { ...env, BURNBOX_CONFIG: legacy })).code).toBe(0);
      expect((await burnboxAsync(["ls"])).code).toBe(0);
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  it("when a command is misused or help asked, then usage is 64, help 0, an unknown email 1", () => {
    expect(burnbox(["bogus"]).code).toBe(64);
    expect(burnbox(["wait"]).code).toBe(64);
    expect(burnbox(["wait", "x", "--count", "zero"]).code).toBe(64);
    expect(burnbox(["wait", "x", "--link", "weird"]).code).toBe(64);
    const commands = [[], ["login"], ["register"], ["init"], ["inbox"], ["inbox", "create"], ["ls"], ["read"], ["wait"], ["tail"]];
    for (const group of ["org", "team"]) commands.push([group], [group, "create"], [group, "ls"]);
    commands.push(["domain"], ["domain", "add"], ["domain", "verify"], ["domain", "assign"], ["domain", "ls"], ["key"], ["key", "create"]);
    for (const cmd of commands) {
      const help = burnbox([...cmd, "--help"]);
      expect({ cmd, code: help.code }).toEqual({ cmd, code: 0 });
      expect(help.out).toContain("Usage: burnbox");
    }
    expect(burnbox(["read", "0193a0c4-0000-7000-8000-000000000000"])).toMatchObject({ code: 1, err: expect.stringContaining("404") });
  });

  describe("setting up from nothing (register, init or org/team/domain/key, then the first code)", () => {
    let fresh: NodeJS.ProcessEnv;
    const email = () => `cli-new-${randomBytes(4).toString("hex")}@example.test`;
    const run = (args: string[], input?: string) => burnbox(args, { env: fresh, ...(input !== undefined ? { input } : {}) });
    beforeEach(() => {
      fresh = {
        PATH: process.env.PATH,
        BURNBOX_CONFIG: path.join(dir, `fresh-${randomBytes(3).toString("hex")}.json`),
        BURNBOX_URL: system.gatewayUrl,
      };
    });

    it("when a new user registers and runs init, then inbox create needs no ids and the mailed code comes back; init again reuses all", async () => {
      const registered = run(["register", "--email", email(), "--name", "New User", "--password-stdin"], `${STRONG_PASSWORD}\n`);
      expect(registered).toMatchObject({ code: 0, out: expect.stringContaining("registered and logged in") });

      const domain = `${alias("init")}.${TRUSTED_DOMAIN}`;
      const init = run(["init", "--org", "Acme", "--team", "QA", "--domain", domain]);
      expect(init.code).toBe(0);
      const assignmentId = init.out.trim();
      expect(init.err).toContain(`created domain ${domain}`);
      expect(JSON.parse(readFileSync(fresh.BURNBOX_CONFIG!, "utf8"))).toMatchObject({
        org_id: expect.any(String),
        team_id: expect.any(String),
        domain_assignment_id: assignmentId,
      });

      const again = run(["init", "--org", "acme", "--team", "QA", "--domain", domain, "--json"]);
      expect(again.code).toBe(0);
      expect(JSON.parse(again.out)).toMatchObject({ assignment: { id: assignmentId }, domain: { domain_name: domain } });
      expect(again.err).toContain(`using domain ${domain}`);
      expect(again.err).not.toContain("created");

      const inbox = run(["inbox", "create", "--alias", "signup", "--json"]);
      expect(inbox.code).toBe(0);
      const { id, full_address } = JSON.parse(inbox.out) as { id: string; full_address: string };
      expect(full_address).toBe(`signup@${domain}`);
      await mail(full_address, "Verify your account", "Your verification code is 730519.");
      expect(run(["wait", id, "--subject", "Verify", "--code", "--timeout", "10s"])).toMatchObject({ code: 0, out: "730519\n" });
    });

    it("when the steps are taken one by one, then each create prints its id (-q), each ls lists it, and the key created works as BURNBOX_API_KEY", async () => {
      expect(run(["register", "--email", email(), "--password-stdin"], `${STRONG_PASSWORD}\n`).code).toBe(0);
      const org = run(["org", "create", "Step Org", "-q"]);
      expect(org.code).toBe(0);
      const orgId = org.out.trim();
      expect(run(["org", "ls"]).out).toMatch(new RegExp(`^${orgId}\tstep-org[^\t]*\tStep Org\towner$`, "m"));

      const team = run(["team", "create", "Step Team", "--org", orgId, "-q"]);
      expect(team.code).toBe(0);
      const teamId = team.out.trim();
      expect(run(["team", "ls", "--org", orgId]).out).toContain(`${teamId}\t`);

      const domainName = `${alias("steps")}.${TRUSTED_DOMAIN}`;
      const added = run(["domain", "add", domainName, "--org", orgId]);
      expect(added.code).toBe(0);
      const [domainId, name, status] = added.out.trim().split("\t");
      expect([name, status]).toEqual([domainName, "verified"]);
      expect(run(["domain", "verify", domainId!, "--org", orgId])).toMatchObject({ code: 0, out: expect.stringContaining("\tverified\t") });
      expect(run(["domain", "ls", "--org", orgId]).out).toContain(`${domainId}\t${domainName}\tverified`);

      const assigned = run(["domain", "assign", domainId!, "--org", orgId, "--team", teamId, "--json"]);
      expect(assigned.code).toBe(0);
      const assignment = JSON.parse(assigned.out) as { id: string; access_level: string };
      expect(assignment.access_level).toBe("full");
      expect(run(["domain", "ls", "--assigned"]).out).toContain(`${assignment.id}\t${domainName}\tStep Team\tfull`);

      const key = run(["key", "create", "--name", "ci", "--org", orgId, "--team", teamId]);
      expect(key.code).toBe(0);
      expect(key.out.trim()).toMatch(/^bb_[0-9a-f]+$/);
      const withKey = { ...fresh, BURNBOX_CONFIG: path.join(dir, "key-only.json"), BURNBOX_API_KEY: key.out.trim() };
      const inbox = burnbox(["inbox", "create", "--domain-assignment", assignment.id, "--json"], { env: withKey });
      expect(inbox.code).toBe(0);
      const { id, full_address } = JSON.parse(inbox.out) as { id: string; full_address: string };
      await mail(full_address, "Sign in", "Open https://app.acme.example/login?token=abc to sign in");
      expect(burnbox(["wait", id, "--link", "magic_link", "--timeout", "10s"], { env: withKey })).toMatchObject({
        code: 0,
        out: "https://app.acme.example/login?token=abc\n",
      });
      // the default scopes make a test suite's key, not an admin's: it cannot make keys
      expect(burnbox(["key", "create", "--name", "more", "--org", orgId, "--team", teamId], { env: withKey })).toMatchObject({
        code: 1,
        err: expect.stringContaining("403"),
      });
    });

    it("when the README's first-mail walkthrough runs as written (its ports, names and the tail line aside), then it prints the code and a key", () => {
      const readme = readFileSync(path.join(CLI_DIR, "..", "..", "README.md"), "utf8");
      const block = /### A first mail[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
      expect(block).toContain("burnbox init");
      const smtp = new URL(`smtp://127.0.0.1:${system.ports.smtp}`);
      const script = block!
        .split("\n")
        .filter((line) => !/^(npm run build:clients|alias burnbox=|burnbox tail )/.test(line))
        .join("\n")
        .replaceAll("me@example.com", email())
        .replaceAll("qa.burnbox.test", `${alias("readme")}.${TRUSTED_DOMAIN}`)
        .replaceAll("smtp://localhost:2525", smtp.href.replace(/\/$/, ""));
      const r = spawnSync(
        "bash",
        ["-c", `set -eo pipefail\nburnbox() { "${process.execPath}" "${CLI}" "$@"; }\n${script}\necho "key $BURNBOX_API_KEY"`],
        {
          env: fresh,
          encoding: "utf8",
        },
      );
      expect({ code: r.status, err: r.stderr }).toMatchObject({ code: 0 });
      expect(r.stdout.split("\n")).toContain("482913");
      expect(r.stdout).toMatch(/^key bb_[0-9a-f]+$/m);
    });

    it("when a setup command lacks what it needs, then usage is 64 and nothing is sent; a foreign org is 1 with the 404", () => {
      expect(run(["register", "--email", email()])).toMatchObject({ code: 64, err: expect.stringContaining("no password") });
      expect(run(["team", "create", "X"])).toMatchObject({ code: 64, err: expect.stringContaining("no org") });
      expect(run(["inbox", "create"])).toMatchObject({ code: 64, err: expect.stringContaining("no domain assignment") });
      expect(run(["domain", "assign", "x", "--org", "y", "--team", "z", "--access", "owner"]).code).toBe(64);
      expect(run(["org", "create", "X", "-q", "--json"]).code).toBe(64);
      expect(run(["register", "--email", email(), "--password-stdin"], `${STRONG_PASSWORD}\n`).code).toBe(0);
      expect(run(["team", "ls", "--org", world.orgId])).toMatchObject({ code: 1, err: expect.stringContaining("404") });
    });
  });

  describe("wait", () => {
    it("when the mail comes, then wait exits 0 and --code and --link print what it holds", async () => {
      const inbox = JSON.parse(burnbox(["inbox", "create", "--domain-assignment", world.assignmentId, "--json"]).out) as {
        id: string;
        full_address: string;
      };
      await mail(inbox.full_address, "Your verification code", "Your code is 482913. Or open https://app.acme.example/verify?t=1");
      const found = burnbox(["wait", inbox.id, "--subject", "verification", "--timeout", "5s"]);
      expect(found.code).toBe(0);
      expect(found.out).toContain("Your verification code");
      expect(burnbox(["wait", inbox.id, "--code", "--timeout", "5s"]).out.trim()).toBe("482913");
      expect(burnbox(["wait", inbox.id, "--link", "verify", "--timeout", "5s"]).out.trim()).toBe("https://app.acme.example/verify?t=1");
      expect(JSON.parse(burnbox(["wait", inbox.id, "--json"]).out)).toMatchObject({ matched: 1, timed_out: false });
    });

    it("when no mail matches in time, then wait exits 2 (not 1), and --json prints the timed-out answer", () => {
      const inbox = JSON.parse(burnbox(["inbox", "create", "--domain-assignment", world.assignmentId, "--json"]).out) as { id: string };
      const r = burnbox(["wait", inbox.id, "--subject", "never", "--timeout", "300ms", "--json"]);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.out)).toEqual({ data: [], matched: 0, timed_out: true });
      expect(burnbox(["wait", inbox.id, "--timeout", "3m"]).code).toBe(1);
    });
  });
});
