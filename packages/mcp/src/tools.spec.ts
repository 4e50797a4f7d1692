import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { BurnBox } from "@burnbox/sdk";
import { z } from "zod";
import { createServer } from "./server.js";
import { TOOL_INPUTS, waitOptions } from "./tools.js";

const INBOX = "0193a0c4-0000-7000-8000-000000000001";
const ASSIGNMENT = "0193a0c4-0000-7000-8000-000000000002";
const valid = <K extends keyof typeof TOOL_INPUTS>(tool: K, input: unknown) => z.object(TOOL_INPUTS[tool]).safeParse(input).success;

describe("tool input schemas", () => {
  it.each([
    ["create_inbox", { domain_assignment_id: ASSIGNMENT }],
    ["create_inbox", { domain_assignment_id: ASSIGNMENT, alias: "signup.test-1", ttl: "2h" }],
    ["create_inbox", { domain_assignment_id: ASSIGNMENT, ttl: "1h30m" }],
    ["list_inboxes", {}],
    ["list_emails", { inbox_id: INBOX, per_page: 100 }],
    ["read_email", { email_id: INBOX }],
    ["wait_for_email", { inbox_id: INBOX, subject: "Verify", headers: { "X-Test-Run": "42" }, count: 3, timeout_seconds: 120 }],
    ["wait_for_code", { inbox_id: INBOX, timeout_seconds: 0 }],
    ["wait_for_link", { inbox_id: INBOX, kind: "magic_link", body_re: "sign[- ]in" }],
  ] as const)("%s accepts %j", (tool, input) => {
    expect(valid(tool, input)).toBe(true);
  });

  it.each([
    ["create_inbox", {}, "no domain assignment"],
    ["create_inbox", { domain_assignment_id: "abc" }, "an assignment id that is no UUID"],
    ["create_inbox", { domain_assignment_id: ASSIGNMENT, alias: "-bad" }, "an alias starting with a dash"],
    ["create_inbox", { domain_assignment_id: ASSIGNMENT, alias: "a" }, "a one-character alias"],
    ["create_inbox", { domain_assignment_id: ASSIGNMENT, ttl: "tomorrow" }, "a ttl that is no duration"],
    ["list_emails", { inbox_id: INBOX, per_page: 101 }, "more than 100 per page"],
    ["read_email", { email_id: 7 }, "a number for an id"],
    ["wait_for_email", { inbox_id: INBOX, timeout_seconds: 121 }, "a wait over 120 s"],
    ["wait_for_email", { inbox_id: INBOX, timeout_seconds: -1 }, "a negative timeout"],
    ["wait_for_email", { inbox_id: INBOX, count: 0 }, "a count of 0"],
    ["wait_for_email", { inbox_id: INBOX, count: 101 }, "a count over 100"],
    ["wait_for_email", { inbox_id: INBOX, subject_re: "x".repeat(257) }, "a pattern over 256 characters"],
    ["wait_for_email", { inbox_id: INBOX, headers: { "X-A: b": "c" } }, "a header name with a colon"],
    ["wait_for_code", { subject: "Verify" }, "no inbox"],
    ["wait_for_link", { inbox_id: INBOX, kind: "download" }, "an unknown link kind"],
  ] as const)("%s refuses %j (%s)", (tool, input, _why) => {
    expect(valid(tool, input)).toBe(false);
  });

  it("maps the matcher fields onto the SDK's wait options, seconds to milliseconds, 30 s by default", () => {
    expect(waitOptions({})).toEqual({ timeout: 30_000 });
    expect(
      waitOptions({ subject_re: "^Verify", body_re: "code", headers: { "X-Run": "1" }, unread: true, count: 2, timeout_seconds: 1.5 }),
    ).toEqual({ subjectRe: "^Verify", bodyRe: "code", headers: { "X-Run": "1" }, unread: true, count: 2, timeout: 1500 });
  });
});

describe("the tools through an MCP client", () => {
  let calls: Request[];
  let answer: () => Response;
  let client: Client;

  beforeEach(async () => {
    calls = [];
    answer = () => Response.json({ error: "unexpected call" }, { status: 500 });
    const bb = new BurnBox({
      baseUrl: "http://burnbox.invalid",
      apiKey: "bb_test",
      fetch: async (req) => {
        calls.push(req as Request);
        return answer();
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createServer(bb).connect(serverSide);
    client = new Client({ name: "spec", version: "1" });
    await client.connect(clientSide);
  });
  afterEach(() => client.close());

  it("lists every tool with its input schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOL_INPUTS).sort());
    const wait = tools.find((t) => t.name === "wait_for_email")!;
    expect(wait.inputSchema.required).toEqual(["inbox_id"]);
    expect(wait.inputSchema.properties).toHaveProperty("timeout_seconds.maximum", 120);
  });

  it("when the input is invalid, then it answers a tool error naming the field and calls nothing", async () => {
    const r = await client.callTool({ name: "wait_for_code", arguments: { inbox_id: INBOX, timeout_seconds: 600 } });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain("timeout_seconds");
    expect(calls).toHaveLength(0);
  });

  it("when the API refuses, then it answers a tool error carrying the API's message and status", async () => {
    answer = () => Response.json({ error: "inbox not found", code: "not_found" }, { status: 404 });
    const r = await client.callTool({ name: "list_emails", arguments: { inbox_id: INBOX } });
    expect(r).toMatchObject({ isError: true, content: [{ type: "text", text: "inbox not found (HTTP 404, not_found)" }] });
    expect(calls.map((c) => [c.method, new URL(c.url).pathname, c.headers.get("authorization")])).toEqual([
      ["GET", `/api/v1/inboxes/${INBOX}/emails`, "Bearer bb_test"],
    ]);
  });

  it("when BurnBox cannot be reached, then it answers a tool error, and the server keeps serving", async () => {
    answer = () => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
    };
    const r = await client.callTool({ name: "list_inboxes", arguments: {} });
    expect(r).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("could not be reached") }] });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("when a wait times out, then wait_for_email answers timed_out (not an error) and wait_for_code a tool error", async () => {
    answer = () => Response.json({ data: [], matched: 0, timed_out: true });
    const mail = await client.callTool({ name: "wait_for_email", arguments: { inbox_id: INBOX, subject: "Hi", timeout_seconds: 2 } });
    expect(mail.isError).toBeFalsy();
    expect(mail.structuredContent).toEqual({ data: [], matched: 0, timed_out: true });
    expect(new URL(calls[0]!.url).search).toBe("?subject=Hi&timeout=2000ms");
    const code = await client.callTool({ name: "wait_for_code", arguments: { inbox_id: INBOX } });
    expect(code).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("no matching email") }] });
  });
});
