import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { buildClientPackages, MCP_DIR } from "./client-packages";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

const MAIN = path.join(MCP_DIR, "dist", "main.js");
const TOOLS = [
  "create_inbox",
  "list_emails",
  "list_inboxes",
  "read_email",
  "release_email",
  "reply_to_email",
  "send_email",
  "wait_for_code",
  "wait_for_email",
  "wait_for_link",
];

type ToolResult = { content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");
/** The result of a call that must succeed; a tool error fails the test with its message. */
const ok = (r: ToolResult) => {
  if (r.isError) throw new Error(`tool error: ${textOf(r)}`);
  return r;
};

/** burnbox-mcp (compiled, as it ships) driven by the MCP SDK's own client over stdio and streamable HTTP. */
describe("burnbox-mcp, the MCP server", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let env: Record<string, string>;
  let stdio: Client;
  let http: Client;
  let httpServer: ChildProcess;
  let httpUrl: URL;
  const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const mail = async (to: string, subject: string, text: string) => {
    const r = await sendMail(system.ports.smtp, { from: "noreply@acme.example", to, subject, text });
    expect(r.data?.code).toBe(250);
  };

  beforeAll(async () => {
    buildClientPackages();
    world = await teamWithDomain(api);
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: alias("mcp"), scopes: ["team.inboxes.create", "team.inboxes.view", "team.emails.view"] },
    });
    if (key.status !== 201) throw new Error(`api key: ${key.status}`);
    env = { PATH: process.env.PATH ?? "", BURNBOX_URL: system.gatewayUrl, BURNBOX_API_KEY: key.body.raw_key };

    stdio = new Client({ name: "burnbox-e2e", version: "1.0.0" });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN], env, stderr: "pipe" }));

    // --http 0: a free port, announced on stderr
    httpServer = spawn(process.execPath, [MAIN, "--http", "0"], { env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    httpServer.stderr!.on("data", (c: Buffer) => (err += c.toString()));
    const url = await waitFor(async () => /listening on (\S+)/.exec(err)?.[1] ?? null, { what: "burnbox-mcp --http to listen" });
    httpUrl = new URL(url);
    http = new Client({ name: "burnbox-e2e", version: "1.0.0" });
    await http.connect(new StreamableHTTPClientTransport(httpUrl));
  });
  afterAll(async () => {
    await stdio?.close();
    await http?.close();
    httpServer?.kill();
  });

  it.each([
    ["stdio", () => stdio],
    ["streamable HTTP", () => http],
  ])("over %s: lists the tools; create_inbox, a mail over SMTP, list_emails and read_email show it", async (_transport, client) => {
    const { tools } = await client().listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);

    const created = await call(client(), "create_inbox", { domain_assignment_id: world.assignmentId, alias: alias("mcp"), ttl: "1h" });
    const inbox = ok(created).structuredContent as { id: string; full_address: string };
    expect(inbox.full_address).toMatch(new RegExp(`^mcp-[0-9a-f]{6}@${world.domainName.replace(/\./g, "\\.")}$`));

    await mail(inbox.full_address, "Agent mail", "Read me through MCP, please.");
    const listed = await waitFor(async () => {
      const r = await call(client(), "list_emails", { inbox_id: inbox.id });
      const page = r.structuredContent as { data: Array<{ id: string; subject: string; from_address: string }> };
      return page.data.length === 1 ? page.data[0]! : null;
    });
    expect(listed).toMatchObject({ subject: "Agent mail", from_address: "noreply@acme.example" });

    const read = await call(client(), "read_email", { email_id: listed.id });
    const text = textOf(ok(read));
    expect(text).toContain("Subject: Agent mail");
    expect(text).toContain("From: noreply@acme.example");
    expect(text).toContain("Read me through MCP, please.");

    const inboxes = await call(client(), "list_inboxes", { per_page: 100 });
    expect((inboxes.structuredContent as { data: Array<{ id: string }> }).data.map((i) => i.id)).toContain(inbox.id);
  });

  it("when the API refuses or the input is invalid, then the tool answers an error with the message, and the server goes on", async () => {
    const unknown = await call(stdio, "read_email", { email_id: "0193a0c4-0000-7000-8000-000000000000" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/\(HTTP 404, not_found\)$/);

    const foreign = await call(http, "create_inbox", { domain_assignment_id: "0193a0c4-0000-7000-8000-000000000000" });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/\(HTTP 4\d\d, [a-z_]+\)$/);

    const invalid = await call(stdio, "wait_for_email", { inbox_id: world.assignmentId, timeout_seconds: 300 });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain("timeout_seconds");
    expect((await stdio.listTools()).tools).toHaveLength(TOOLS.length);
  });

  it("over HTTP: keeps no sessions (GET 405), and refuses a Host that is not loopback (DNS rebinding)", async () => {
    const get = await fetch(httpUrl, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    const rebound = await new Promise<number>((resolve, reject) => {
      const headers = { host: "evil.example", "content-type": "application/json" };
      const req = request({ host: httpUrl.hostname, port: Number(httpUrl.port), path: "/mcp", method: "POST", headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end("{}");
    });
    expect(rebound).toBe(403);
  });

  describe("over HTTP beyond loopback", () => {
    /** Starts `burnbox-mcp --http 0 --host 0.0.0.0` with `extra` env; resolves when it listens or exits. */
    const start = (extra: Record<string, string>) => {
      const child = spawn(process.execPath, [MAIN, "--http", "0", "--host", "0.0.0.0"], {
        env: { ...env, ...extra },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      let exitCode: number | null | undefined;
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      child.on("exit", (code) => (exitCode = code));
      return { child, stderr: () => err, exitCode: () => exitCode };
    };

    it("when no token is configured, then it refuses to start, saying why", async () => {
      const server = start({});
      try {
        // whichever comes first: the exit, or the line saying it listens
        const outcome = await waitFor(
          async () =>
            server.exitCode() !== undefined ? { exit: server.exitCode() } : /listening/.test(server.stderr()) ? "listening" : null,
          { what: "the server to exit or listen" },
        );
        expect(outcome).toEqual({ exit: 64 });
        expect(server.stderr()).toContain("BURNBOX_MCP_TOKEN");
      } finally {
        server.child.kill();
      }
    });

    it("when a token is configured, then a request without it or with another gets 401 (WWW-Authenticate: Bearer), and with it works", async () => {
      const token = randomBytes(24).toString("base64url");
      const server = start({ BURNBOX_MCP_TOKEN: token });
      let client: Client | undefined;
      try {
        const announced = await waitFor(async () => /listening on (\S+)/.exec(server.stderr())?.[1] ?? null, {
          what: "the server to listen",
        });
        // it listens on every address; reach it on loopback
        const url = new URL(announced);
        url.hostname = "127.0.0.1";
        const init = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
        const post = (headers: Record<string, string>) =>
          fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
            body: JSON.stringify(init),
          });
        const wrong: Array<Record<string, string>> = [{}, { authorization: `Bearer ${token}x` }, { authorization: `Basic ${token}` }];
        for (const headers of wrong) {
          const refused = await post(headers);
          expect(refused.status).toBe(401);
          expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
        }
        client = new Client({ name: "burnbox-e2e", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
      } finally {
        await client?.close();
        server.child.kill();
      }
    });
  });

  it("over HTTP on loopback: a request from a web page of another origin is refused (403)", async () => {
    const res = await fetch(httpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", origin: "http://evil.example" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(403);
  });

  it("wait_for_email, wait_for_code and wait_for_link answer when the mail arrives, and a wait that times out says so", async () => {
    const created = await call(http, "create_inbox", { domain_assignment_id: world.assignmentId, alias: alias("wait") });
    const inbox = created.structuredContent as { id: string; full_address: string };
    // a letter first: an all-digit run id next to "verify" would itself be a code
    const run = `t${randomBytes(4).toString("hex")}`;

    const waiting = call(stdio, "wait_for_email", { inbox_id: inbox.id, subject: `Run ${run}`, timeout_seconds: 30 });
    const code = call(http, "wait_for_code", { inbox_id: inbox.id, subject: `Run ${run}`, timeout_seconds: 30 });
    const link = call(stdio, "wait_for_link", { inbox_id: inbox.id, subject: `Run ${run}`, kind: "verify", timeout_seconds: 30 });
    await mail(
      inbox.full_address,
      `Run ${run}: verify your address`,
      "Your code is 482913. Or open https://app.example/verify?token=abc123",
    );

    const email = await waiting;
    expect(email.isError).toBeFalsy();
    expect(email.structuredContent).toMatchObject({ timed_out: false, matched: 1, data: [{ subject: `Run ${run}: verify your address` }] });
    expect(textOf(await code)).toBe("482913");
    expect(textOf(await link)).toBe("https://app.example/verify?token=abc123");

    const emailId = (email.structuredContent as { data: Array<{ id: string }> }).data[0]!.id;
    const read = textOf(await call(stdio, "read_email", { email_id: emailId }));
    expect(read).toContain("Codes: 482913");
    expect(read).toContain("[verify] https://app.example/verify?token=abc123");

    const none = await call(http, "wait_for_email", { inbox_id: inbox.id, subject: "never sent", timeout_seconds: 1 });
    expect(none.structuredContent).toMatchObject({ timed_out: true, matched: 0, data: [] });
    const noCode = await call(http, "wait_for_code", { inbox_id: inbox.id, subject: "never sent", timeout_seconds: 1 });
    expect(noCode.isError).toBe(true);
  });
});
