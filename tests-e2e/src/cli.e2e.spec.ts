import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { buildClientPackages, CLI_DIR } from "./client-packages";
import { SharedSystem } from "./shared-system";
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

  it("when logged in, then the config file holds the tokens, readable by its owner only", () => {
    const file = path.join(dir, "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      base_url: system.gatewayUrl,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
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

  it("when a command is misused or help asked, then usage is 64, help 0, an unknown email 1", () => {
    expect(burnbox(["bogus"]).code).toBe(64);
    expect(burnbox(["wait"]).code).toBe(64);
    expect(burnbox(["wait", "x", "--count", "zero"]).code).toBe(64);
    expect(burnbox(["wait", "x", "--link", "weird"]).code).toBe(64);
    for (const cmd of [[], ["login"], ["inbox"], ["inbox", "create"], ["ls"], ["read"], ["wait"], ["tail"]]) {
      const help = burnbox([...cmd, "--help"]);
      expect({ cmd, code: help.code }).toEqual({ cmd, code: 0 });
      expect(help.out).toContain("Usage: burnbox");
    }
    expect(burnbox(["read", "0193a0c4-0000-7000-8000-000000000000"])).toMatchObject({ code: 1, err: expect.stringContaining("404") });
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
