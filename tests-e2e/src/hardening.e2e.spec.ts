import { request } from "node:http";
import { randomUUID } from "node:crypto";
import { apiClient, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, newClientIp, registerUser, teamWithDomain } from "./world";

/**
 * The defects an outside tester found (issue: hardening), each reproduced through the public
 * ports: none of these may be a 5xx, and each error is in the envelope.
 */
describe("bad input is never a server error", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  const raw = (
    method: string,
    path: string,
    init: { token?: string; body?: string; type?: string; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${system.gatewayUrl}/api/v1${path}`, {
      method,
      headers: {
        "x-forwarded-for": newClientIp(),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.type ? { "content-type": init.type } : {}),
        ...(init.headers ?? {}),
      },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });

  it("when a path parameter is a malformed percent-escape (with or without a credential), then 400 validation_error", async () => {
    const user = await registerUser(api, "escape");
    for (const [path, token] of [
      ["/auth/verify-email/%", undefined],
      ["/inboxes/%E0%A4%A", user.token],
      ["/emails/%", user.token],
    ] as const) {
      const res = await raw("GET", path, token ? { token } : {});
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_error" });
    }
  });

  it("when a JSON string holds a NUL or an unpaired surrogate, then 400 naming the field", async () => {
    const user = await registerUser(api, "nul");
    for (const body of ['{"name":"a\\u0000b"}', '{"name":"x\\ud800y"}']) {
      const res = await raw("POST", "/orgs", { token: user.token, body, type: "application/json" });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_error", error: expect.stringContaining("name") });
    }
    const profile = await raw("PATCH", "/auth/me", { token: user.token, body: '{"display_name":"a\\u0000"}', type: "application/json" });
    expect(profile.status).toBe(400);
    const register = await raw("POST", "/auth/register", {
      body: JSON.stringify({ email: `r-${randomUUID()}@example.test`, password: "Correct-Horse-9-Battery", display_name: "x\ud800" }),
      type: "application/json",
    });
    expect(register.status).toBe(400);
  });

  it("when a search query holds control characters, then 400 rather than a database error", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "ctl");
    const res = await raw("GET", `/inboxes/${inbox.id}/emails?q=%00%01`, { token: world.owner.token });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_error" });
  });

  it("when a mail holds a NUL byte in its subject and body, then it is accepted once (250) and listed without the NUL", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "nulmail");
    const sent = await sendMail(system.ports.smtp, {
      from: "a@example.org",
      to: inbox.full_address,
      subject: "Code\u0000 7",
      text: "body\u0000 text",
    });
    expect(sent.data?.code).toBe(250);
    const page = await api<{ data: Array<{ subject: string; snippet: string }> }>("GET", `/inboxes/${inbox.id}/emails`, {
      token: world.owner.token,
    });
    expect(page.body.data).toEqual([expect.objectContaining({ subject: "Code 7", snippet: "body text" })]);
  });

  it("when pagination is sent as an array (page[]=1&page[]=2), then 400", async () => {
    const user = await registerUser(api, "arr");
    const res = await raw("GET", "/inboxes?page[]=1&page[]=2", { token: user.token });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_error" });
  });

  it("when a JSON route gets a text, XML or form body, then 415 in the envelope", async () => {
    const user = await registerUser(api, "ctype");
    for (const type of ["text/plain", "application/xml", "application/x-www-form-urlencoded"]) {
      const res = await raw("POST", "/orgs", { token: user.token, body: "name=x", type });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: "request body must be JSON (Content-Type: application/json)", code: "error" });
    }
  });

  it("when the request headers are over 16 KB, then 431 in the envelope, not an empty reset", async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${system.gatewayUrl}/api/v1/roles`, { headers: { "x-big": "a".repeat(20_000) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(JSON.parse(body)).toEqual({ error: "request header fields too large", code: "error" });
  });
});

describe("Strict-Transport-Security", () => {
  const system = SharedSystem.attach();
  /** A GET of `path` with `headers`, sent from `localAddress` (the runner's 127.0.0.1 is a trusted proxy; 127.0.0.2 is not). */
  const get = (path: string, headers: Record<string, string>, localAddress = "127.0.0.1") =>
    new Promise<{ status: number; hsts: string | undefined }>((resolve, reject) => {
      const req = request(`${system.gatewayUrl}${path}`, { headers, localAddress }, (res) => {
        res.resume();
        const hsts = res.headers["strict-transport-security"];
        resolve({ status: res.statusCode ?? 0, hsts: Array.isArray(hsts) ? hsts.join(", ") : hsts });
      });
      req.on("error", reject);
      req.end();
    });

  it("when a trusted proxy says the request came over https, then the answer carries HSTS; over plain http it does not", async () => {
    for (const path of ["/api/v1/roles", "/api/v1/no-such-route", "/healthz"]) {
      const https = await get(path, { "x-forwarded-proto": "https" });
      expect({ path, hsts: https.hsts }).toEqual({ path, hsts: "max-age=31536000; includeSubDomains" });
      const plain = await get(path, {});
      expect({ path, hsts: plain.hsts }).toEqual({ path, hsts: undefined });
      expect((await get(path, { "x-forwarded-proto": "http" })).hsts).toBeUndefined();
    }
  });

  it("when a peer that is not a trusted proxy sends X-Forwarded-Proto: https, then no HSTS (the claim is not believed)", async () => {
    const untrusted = await get("/api/v1/roles", { "x-forwarded-proto": "https" }, "127.0.0.2");
    expect(untrusted.status).toBeGreaterThan(0);
    expect(untrusted.hsts).toBeUndefined();
  });
});
