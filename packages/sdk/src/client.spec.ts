import { BurnBox, NothingExtractedError } from "./client.js";
import { BurnBoxError, WaitTimeoutError } from "./errors.js";
import type { WaitEmailSummary, WaitResponse } from "./extensions.js";
import { buildWaitQuery, formatTimeout } from "./wait-query.js";

const INBOX = "0193a0c4-0000-7000-8000-000000000002";

/** A client whose fetch records each request and answers with `answer`. */
function fakeClient(answer: (req: Request) => Response, options: { apiKey?: string; token?: string } = {}) {
  const requests: Request[] = [];
  const bb = new BurnBox({
    baseUrl: "https://bb.example.test/",
    ...options,
    fetch: async (input: RequestInfo | URL) => {
      const req = input as Request;
      requests.push(req);
      return answer(req);
    },
  });
  return { bb, requests };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const summary = (extracted: WaitEmailSummary["extracted"]): WaitEmailSummary => ({
  id: "0193a0c4-0000-7000-8000-00000000000e",
  inbox_id: INBOX,
  from_address: "noreply@acme.test",
  subject: "Your code",
  snippet: "",
  received_at: "2026-11-27T07:00:00.000Z",
  is_read: false,
  has_attachments: false,
  size_bytes: 100,
  extracted,
  authentication_summary: "none",
  spam_score: null,
  spam_required_score: null,
});

describe("the wait's query", () => {
  it("when every option is given, then each goes out under its wire name", () => {
    expect(
      buildWaitQuery({
        from: "noreply@acme.test",
        to: "qa",
        subject: "Verify",
        body: "code",
        subjectRe: "^Your (code|link)",
        bodyRe: "\\d{6}",
        headers: { "X-Test-Run": "42", "X-Env": "ci" },
        since: new Date("2026-11-27T10:00:00Z"),
        unread: true,
        count: 3,
        timeout: 1500,
      }),
    ).toEqual({
      from: "noreply@acme.test",
      to: "qa",
      subject: "Verify",
      body: "code",
      subject_re: "^Your (code|link)",
      body_re: "\\d{6}",
      header: ["X-Test-Run: 42", "X-Env: ci"],
      since: "2026-11-27T10:00:00.000Z",
      unread: true,
      count: 3,
      timeout: "1500ms",
    });
  });

  it("when nothing is given, then the query is empty (the server's defaults apply)", () => {
    expect(buildWaitQuery()).toEqual({});
    expect(buildWaitQuery({ unread: false })).toEqual({});
  });

  it.each([
    [0, "0"],
    [499.6, "500ms"],
    [30_000, "30000ms"],
    ["2m", "2m"],
    ["0", "0"],
  ])("when timeout is %p, then it is sent as %p", (given, sent) => {
    expect(formatTimeout(given)).toBe(sent);
  });

  it("when headers are strings or a since is an email id, then they go as given", () => {
    expect(buildWaitQuery({ headers: "X-Test-Run: a:b", since: "0193a0c4-0000-7000-8000-00000000000e" })).toEqual({
      header: ["X-Test-Run: a:b"],
      since: "0193a0c4-0000-7000-8000-00000000000e",
    });
  });

  it.each([
    ["a negative timeout", { timeout: -1 }],
    ["a count that is not an integer", { count: 1.5 }],
    ["an invalid date", { since: new Date("nope") }],
    ["a header name with a colon", { headers: { "X:Y": "1" } }],
  ])("when the options hold %s, then buildWaitQuery throws a TypeError", (_what, opts) => {
    expect(() => buildWaitQuery(opts)).toThrow(TypeError);
  });

  it("when the client waits, then the URL holds the inbox and every field, header repeated", async () => {
    const answer: WaitResponse = { data: [], matched: 0, timed_out: true };
    const { bb, requests } = fakeClient(() => json(200, answer), { apiKey: "bb_" + "a".repeat(64) });
    await expect(bb.wait(INBOX, { subject: "Hi there", headers: ["X-A: 1", "X-B: 2"], timeout: "10s", count: 2 })).resolves.toEqual(answer);
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe(`/api/v1/inboxes/${INBOX}/emails/wait`);
    expect(url.searchParams.get("subject")).toBe("Hi there");
    expect(url.searchParams.getAll("header")).toEqual(["X-A: 1", "X-B: 2"]);
    expect(url.searchParams.get("timeout")).toBe("10s");
    expect(url.searchParams.get("count")).toBe("2");
    expect(requests[0]!.headers.get("authorization")).toBe(`Bearer bb_${"a".repeat(64)}`);
  });
});

describe("waiting helpers", () => {
  it("when the wait times out, then wait() answers it and waitForEmail rejects with WaitTimeoutError carrying it", async () => {
    const answer: WaitResponse = { data: [], matched: 0, timed_out: true };
    const { bb } = fakeClient(() => json(200, answer));
    expect((await bb.wait(INBOX, { timeout: 0 })).timed_out).toBe(true);
    const err = await bb.waitForEmail(INBOX, { timeout: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as WaitTimeoutError).result).toEqual(answer);
    await expect(bb.waitForCode(INBOX)).rejects.toBeInstanceOf(WaitTimeoutError);
  });

  it("when the mail holds codes and links, then waitForCode gives the first code and waitForLink the kind asked for", async () => {
    const email = summary({
      codes: [
        { value: "482913", context: "Your code is 482913" },
        { value: "ABC123", context: "ref ABC123" },
      ],
      links: [
        { url: "https://acme.test/unsubscribe", text: "Unsubscribe", kind: "unsubscribe" },
        { url: "https://acme.test/verify?t=1", text: "Verify", kind: "verify" },
        { url: "https://acme.test/reset?t=2", text: "Reset", kind: "reset" },
      ],
    });
    const { bb, requests } = fakeClient(() => json(200, { data: [email], matched: 1, timed_out: false }));
    expect(await bb.waitForCode(INBOX, { count: 5 })).toBe("482913");
    expect(new URL(requests[0]!.url).searchParams.get("count")).toBe("1");
    expect(await bb.waitForLink(INBOX)).toBe("https://acme.test/verify?t=1");
    expect(await bb.waitForLink(INBOX, { kind: "reset" })).toBe("https://acme.test/reset?t=2");
    await expect(bb.waitForLink(INBOX, { kind: "magic_link" })).rejects.toBeInstanceOf(NothingExtractedError);
  });

  it("when the mail holds no code, then waitForCode rejects with NothingExtractedError naming the email", async () => {
    const email = summary({ codes: [], links: [] });
    const { bb } = fakeClient(() => json(200, { data: [email], matched: 1, timed_out: false }));
    const err = await bb.waitForCode(INBOX).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NothingExtractedError);
    expect((err as NothingExtractedError).email.id).toBe(email.id);
  });
});

describe("errors", () => {
  const caught = async (p: Promise<unknown>) => (await p.catch((e: unknown) => e)) as BurnBoxError;

  it("when the answer is the envelope, then BurnBoxError carries its status, code and message", async () => {
    const { bb } = fakeClient(() => json(404, { error: "inbox not found", code: "not_found" }));
    const err = await caught(bb.getInbox(INBOX));
    expect(err).toBeInstanceOf(BurnBoxError);
    expect(err).toMatchObject({ status: 404, code: "not_found", message: "inbox not found" });
    expect(err.body).toEqual({ error: "inbox not found", code: "not_found" });
  });

  it("when the answer is a 429, then the code is rate_limited and retryAfter is the body's", async () => {
    const { bb } = fakeClient(() => json(429, { error: "too many requests", retry_after: 7 }, { "retry-after": "7" }));
    expect(await caught(bb.listInboxes())).toMatchObject({ status: 429, code: "rate_limited", retryAfter: 7 });
  });

  it("when the wait refuses its query, then the 400 envelope surfaces from waitForEmail", async () => {
    const { bb } = fakeClient(() => json(400, { error: "timeout must be at most 120s", code: "validation_error" }));
    expect(await caught(bb.waitForEmail(INBOX, { timeout: "3m" }))).toMatchObject({ status: 400, code: "validation_error" });
  });

  it("when the answer is not JSON, then the code follows the status and the message is the text", async () => {
    const { bb } = fakeClient(() => new Response("upstream down", { status: 502 }));
    expect(await caught(bb.getEmail(INBOX))).toMatchObject({ status: 502, code: "internal_error", message: "upstream down" });
  });

  it("when login succeeds, then later requests carry its access token", async () => {
    const { bb, requests } = fakeClient((req) =>
      req.url.endsWith("/auth/login")
        ? json(200, { tokens: { access_token: "jwt-1", refresh_token: "r", expires_in: 900 }, user: {} })
        : json(200, { data: [], page: 1, per_page: 20, total: 0, total_pages: 0 }),
    );
    await bb.login("a@b.test", "pw");
    await bb.listInboxes({ per_page: 5 });
    expect(requests[0]!.headers.get("authorization")).toBeNull();
    expect(requests[1]!.headers.get("authorization")).toBe("Bearer jwt-1");
    expect(new URL(requests[1]!.url).search).toBe("?per_page=5");
  });

  it("when the base URL already ends with /api/v1 or the key is not a bb_ key, then it is kept or refused", () => {
    expect(new BurnBox({ baseUrl: "http://h:1/api/v1/" }).baseUrl).toBe("http://h:1/api/v1");
    expect(() => new BurnBox({ baseUrl: "http://h:1", apiKey: "sk_123" })).toThrow(TypeError);
  });
});

describe("setting up (register, org, team, domain, assignment, key)", () => {
  it("when the setup methods run in order, then each calls its operation with the ids of the last, and register's token is used after it", async () => {
    const ids = {
      org: "0193a0c4-0000-7000-8000-0000000000a1",
      team: "0193a0c4-0000-7000-8000-0000000000a2",
      domain: "0193a0c4-0000-7000-8000-0000000000a3",
    };
    const { bb, requests } = fakeClient((req) => {
      const path = new URL(req.url).pathname.replace("/api/v1", "");
      if (path === "/auth/register") return json(201, { user: {}, tokens: { access_token: "jwt-1", refresh_token: "r", expires_in: 900 } });
      if (path === "/orgs") return json(201, { id: ids.org });
      if (path.endsWith("/teams")) return json(201, { id: ids.team });
      if (path.endsWith("/domains") && !path.includes("/teams/")) return json(201, { id: ids.domain, status: "verified" });
      if (path.endsWith("/verify")) return json(200, { id: ids.domain, status: "verified" });
      if (path.includes("/teams/") && path.endsWith("/domains")) return json(201, { id: "assignment" });
      if (path.endsWith("/api-keys")) return json(201, { id: "key", raw_key: "bb_1" });
      return json(404, { error: "route not found", code: "not_found" });
    });
    await bb.register({ email: "me@example.test", password: "Correct-Horse-9", display_name: "Me" });
    const org = await bb.createOrg({ name: "Acme" });
    const team = await bb.createTeam(org.id, { name: "QA" });
    const domain = await bb.createDomain(org.id, "qa.burnbox.test");
    await bb.verifyDomain(org.id, domain.id);
    expect((await bb.assignDomain(org.id, team.id, domain.id)).id).toBe("assignment");
    expect((await bb.createApiKey(org.id, team.id, { name: "ci", scopes: ["team.emails.view"] })).raw_key).toBe("bb_1");

    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      "POST /api/v1/auth/register",
      "POST /api/v1/orgs",
      `POST /api/v1/orgs/${ids.org}/teams`,
      `POST /api/v1/orgs/${ids.org}/domains`,
      `POST /api/v1/orgs/${ids.org}/domains/${ids.domain}/verify`,
      `POST /api/v1/orgs/${ids.org}/teams/${ids.team}/domains`,
      `POST /api/v1/orgs/${ids.org}/teams/${ids.team}/api-keys`,
    ]);
    expect(requests[0]!.headers.get("authorization")).toBeNull();
    expect(requests.slice(1).every((r) => r.headers.get("authorization") === "Bearer jwt-1")).toBe(true);
    expect(await requests[5]!.clone().json()).toEqual({ domain_id: ids.domain, access_level: "full" });
    expect(await requests[6]!.clone().json()).toEqual({ name: "ci", scopes: ["team.emails.view"], allowed_ips: [] });
  });

  it("when a setup call is refused, then it throws the envelope as a BurnBoxError", async () => {
    const { bb } = fakeClient(() => json(409, { error: "domain already exists", code: "conflict" }), { token: "jwt" });
    await expect(bb.createDomain("0193a0c4-0000-7000-8000-0000000000a1", "qa.burnbox.test")).rejects.toMatchObject({
      status: 409,
      code: "conflict",
    });
  });
});

describe("browser sessions", () => {
  const caught = async (p: Promise<unknown>) => (await p.catch((e: unknown) => e)) as BurnBoxError;
  const page = { data: [], page: 1, per_page: 20, total: 0, total_pages: 0 };

  it("when getToken is given, then each request carries the token it answers at that moment", async () => {
    let current: string | undefined = "jwt-a";
    const requests: Request[] = [];
    const bb = new BurnBox({
      baseUrl: "https://bb.example.test",
      getToken: () => current,
      fetch: async (input: RequestInfo | URL) => {
        requests.push(input as Request);
        return json(200, page);
      },
    });
    await bb.listInboxes();
    current = "jwt-b";
    await bb.listInboxes();
    current = undefined;
    await bb.listInboxes();
    expect(requests.map((r) => r.headers.get("authorization"))).toEqual(["Bearer jwt-a", "Bearer jwt-b", null]);
  });

  it("when a request meets a 401 and onUnauthorized obtains a new token, then it is sent again once with it", async () => {
    let current = "stale";
    const seen: Array<string | null> = [];
    let asked = 0;
    const bb = new BurnBox({
      baseUrl: "https://bb.example.test",
      getToken: () => current,
      onUnauthorized: async () => {
        asked++;
        current = "fresh";
        return true;
      },
      fetch: async (input: RequestInfo | URL) => {
        const req = input as Request;
        seen.push(req.headers.get("authorization"));
        return req.headers.get("authorization") === "Bearer fresh"
          ? json(201, { id: INBOX })
          : json(401, { error: "token expired", code: "unauthenticated" });
      },
    });
    await expect(bb.createInbox({ domain_assignment_id: INBOX })).resolves.toEqual({ id: INBOX });
    expect(seen).toEqual(["Bearer stale", "Bearer fresh"]);
    expect(asked).toBe(1);
  });

  it("when the refresh fails, or the 401 answers a sign-in or a request without a credential, then the 401 stands and nothing is sent again", async () => {
    const sent: string[] = [];
    let asked = 0;
    const bb = new BurnBox({
      baseUrl: "https://bb.example.test",
      getToken: () => "stale",
      onUnauthorized: async () => {
        asked++;
        return false;
      },
      fetch: async (input: RequestInfo | URL) => {
        sent.push(new URL((input as Request).url).pathname);
        return json(401, { error: "invalid email or password", code: "unauthenticated" });
      },
    });
    expect(await caught(bb.getInbox(INBOX))).toMatchObject({ status: 401 });
    expect(await caught(bb.login("a@b.test", "pw"))).toMatchObject({ status: 401, message: "invalid email or password" });
    expect(sent).toEqual([`/api/v1/inboxes/${INBOX}`, "/api/v1/auth/login"]);
    expect(asked).toBe(1);
  });

  it("when credentials is given, then the requests use that mode", async () => {
    const requests: Request[] = [];
    const bb = new BurnBox({
      baseUrl: "https://bb.example.test",
      credentials: "include",
      fetch: async (input: RequestInfo | URL) => {
        requests.push(input as Request);
        return json(200, page);
      },
    });
    await bb.listInboxes();
    expect(requests[0]!.credentials).toBe("include");
  });
});
