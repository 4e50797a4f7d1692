import type { ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient } from "./clients";
import { testDns } from "./dns";
import { startOidcProvider } from "./oidc-provider";
import { SharedSystem } from "./shared-system";
import { STRONG_PASSWORD, newClientIp, registerAdmin, registerUser, teamWithDomain, type Tokens } from "./world";

const CLIENT_ID = "burnbox-e2e";
const CLIENT_SECRET = randomBytes(16).toString("hex");
const tag = randomBytes(3).toString("hex");
const NAMES = { main: `e2e-${tag}-main`, off: `e2e-${tag}-off`, trusted: `e2e-${tag}-trusted` };

/**
 * A browser: a cookie jar per origin (name=value pairs; a cookie set with Max-Age=0 is dropped), so
 * BurnBox's flow and session cookies go back to BurnBox and the provider's to the provider.
 */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(url, { method: "GET", headers });
  }

  async post(url: string, form: Record<string, string>): Promise<Response> {
    return this.send(url, {
      method: "POST",
      body: new URLSearchParams(form).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }

  /** A JSON call with this browser's cookies (as the console's fetch sends them). */
  async json<T = Record<string, unknown>>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await this.send(url, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  has(url: string, name: string): boolean {
    return this.jars.get(new URL(url).origin)?.has(name) ?? false;
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const origin = new URL(url).origin;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attributes] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1));
    }
    return res;
  }
}

describe("single sign-on with OpenID Connect against a real provider", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  /** identity's base_url in the shared system (the gateway): the redirect URIs registered at the provider, and where the callback sends the browser. */
  const BASE_URL = system.gatewayUrl;
  let issuer = "";
  let child: ChildProcess | undefined;
  let admin = { token: "", userId: "", email: "" };
  const providerIds: Record<string, string> = {};

  /** The callback URL the provider redirects to, sent to the gateway instead of the base URL. */
  const throughGateway = (url: string) => url.replace(BASE_URL, system.gatewayUrl);

  /**
   * Like a browser: start at the gateway, sign in and consent at the provider, come back to the
   * callback. `browser` is the one that starts (a fresh one by default); `callbackIn` the one that
   * opens the callback URL (the same by default), after `beforeCallback`.
   */
  async function signInAtProvider(
    name: string,
    login: string,
    opts: { start?: string; browser?: Browser; callbackIn?: Browser; beforeCallback?: () => Promise<void> } = {},
  ) {
    const ip = newClientIp();
    const browser = opts.browser ?? new Browser();
    const begin = await browser.get(`${system.gatewayUrl}/api/v1${opts.start ?? `/auth/sso/${name}`}`, { "x-forwarded-for": ip });
    expect(begin.status).toBe(302);
    let url = begin.headers.get("location")!;
    expect(url.startsWith(issuer)).toBe(true);
    for (let step = 0; step < 12; step++) {
      if (url.startsWith(BASE_URL)) break;
      const res = await browser.get(new URL(url, issuer).href);
      if (res.status >= 300 && res.status < 400) {
        url = new URL(res.headers.get("location")!, issuer).href;
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`no form at ${url}: ${res.status}`);
      const form: Record<string, string> = prompt === "login" ? { prompt, login, password: "any" } : { prompt };
      const submitted = await browser.post(new URL(action, issuer).href, form);
      url = new URL(submitted.headers.get("location")!, issuer).href;
    }
    const callbackUrl = throughGateway(url);
    await opts.beforeCallback?.();
    const back = await (opts.callbackIn ?? browser).get(callbackUrl, { "x-forwarded-for": ip });
    return {
      browser,
      callbackUrl,
      status: back.status,
      location: back.headers.get("location") ?? "",
      body: back.status === 302 ? null : await back.json(),
    };
  }

  const ssoCodeOf = (location: string) => new URL(location).searchParams.get("sso_code");
  const fragmentOf = (location: string) => new URLSearchParams(new URL(location).hash.slice(1));

  /** The console's exchange of the one-time code, from `browser` (the one that started the login, or another). */
  async function exchange(code: string, browser: Browser) {
    return browser.json<{ user: { id: string; email: string; email_verified: boolean; sso_provider: string | null }; tokens: Tokens }>(
      "POST",
      `${system.gatewayUrl}/api/v1/auth/sso/exchange`,
      { code },
      { "x-forwarded-for": newClientIp() },
    );
  }

  /** A password login in `browser` in cookie mode, as the console does it: the browser then holds the session's cookie. */
  async function passwordLoginIn(browser: Browser, email: string) {
    const res = await browser.json<{ tokens: Tokens }>(
      "POST",
      `${system.gatewayUrl}/api/v1/auth/login`,
      { email, password: STRONG_PASSWORD, use_cookie: true },
      { "x-forwarded-for": newClientIp() },
    );
    expect(res.status).toBe(200);
    return res.body.tokens.access_token;
  }

  /** A registered user whose address an admin marked verified (as the verification mail would). */
  async function verifiedUser(label: string) {
    const user = await registerUser(api, label);
    const marked = await api("PATCH", `/admin/users/${user.userId}`, { token: admin.token, body: { email_verified: true } });
    expect(marked).toMatchObject({ status: 200, body: { email_verified: true } });
    return user;
  }

  function providerBody(name: string, overrides: Record<string, unknown> = {}) {
    return {
      name,
      provider_type: "oidc",
      label: `Test IdP ${name}`,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      issuer_url: issuer,
      ...overrides,
    };
  }

  beforeAll(async () => {
    ({ issuer, child } = await startOidcProvider(
      Object.values(NAMES).map((n) => `${BASE_URL}/api/v1/auth/sso/${n}/callback`),
      { id: CLIENT_ID, secret: CLIENT_SECRET },
    ));
    admin = await registerAdmin(api, system);
    for (const [key, name] of Object.entries(NAMES)) {
      const res = await api<{ id: string }>("POST", "/admin/sso/providers", {
        token: admin.token,
        body: providerBody(name, key === "off" ? { enabled: false } : key === "trusted" ? { trust_email: true, auto_provision: true } : {}),
      });
      expect(res.status).toBe(201);
      providerIds[key] = res.body.id;
    }
  });

  afterAll(() => {
    child?.kill();
  });

  describe("provider administration", () => {
    it("when an admin creates a provider, then the secret is never returned, the name is unique and sso-status lists it while enabled", async () => {
      const name = `e2e-${randomBytes(3).toString("hex")}-crud`;
      const created = await api<Record<string, unknown>>("POST", "/admin/sso/providers", { token: admin.token, body: providerBody(name) });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name,
        provider_type: "oidc",
        has_client_secret: true,
        scopes: ["openid", "email", "profile"],
        enabled: true,
        trust_email: false,
      });
      expect(JSON.stringify(created.body)).not.toContain(CLIENT_SECRET);
      const id = created.body.id as string;

      const twin = await api("POST", "/admin/sso/providers", { token: admin.token, body: providerBody(name) });
      expect(twin.status).toBe(409);

      const status = await api<{ providers: Array<{ name: string }> }>("GET", "/auth/sso-status");
      expect(status.body.providers).toContainEqual({ name, provider_type: "oidc", label: `Test IdP ${name}` });
      expect(status.body.providers.map((p) => p.name)).not.toContain(NAMES.off);

      const listed = await api<{ data: Array<{ id: string }>; total: number }>("GET", "/admin/sso/providers?per_page=100", {
        token: admin.token,
      });
      expect(listed.body.data.map((p) => p.id)).toContain(id);

      // PUT without a secret keeps the stored one; the provider still works for discovery
      const { client_secret: _omit, ...withoutSecret } = providerBody(name, { label: "Renamed" });
      const put = await api<Record<string, unknown>>("PUT", `/admin/sso/providers/${id}`, { token: admin.token, body: withoutSecret });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ label: "Renamed", has_client_secret: true });
      const tested = await api<{ success: boolean }>("POST", "/admin/sso/test", { token: admin.token, body: { provider_id: id } });
      expect(tested.body).toMatchObject({
        success: true,
        issuer,
        endpoints: { authorization: `${issuer}/auth`, token: `${issuer}/token`, jwks: `${issuer}/jwks` },
      });

      expect((await api("DELETE", `/admin/sso/providers/${id}`, { token: admin.token })).status).toBe(204);
      expect((await api("GET", `/admin/sso/providers/${id}`, { token: admin.token })).status).toBe(404);
      expect((await api("DELETE", `/admin/sso/providers/${id}`, { token: admin.token })).status).toBe(404);
    });

    it("when a provider body breaks the preset or issuer rules, then 400 and nothing is stored", async () => {
      const name = `e2e-${randomBytes(3).toString("hex")}-bad`;
      const cases = [
        providerBody(name, { issuer_url: "http://idp.example.com" }),
        providerBody(name, { provider_type: "azure", issuer_url: null }),
        providerBody(name, { provider_type: "okta", issuer_url: null }),
        providerBody(name, { name: "Not A Name" }),
        providerBody(name, { client_secret: undefined }),
      ];
      for (const body of cases) {
        const res = await api("POST", "/admin/sso/providers", { token: admin.token, body });
        expect(res).toMatchObject({ status: 400, body: { code: "validation_error" } });
      }
      const listed = await api<{ data: Array<{ name: string }> }>("GET", "/admin/sso/providers?per_page=100", { token: admin.token });
      expect(listed.body.data.map((p) => p.name)).not.toContain(name);
      const google = await api<Record<string, unknown>>("POST", "/admin/sso/providers", {
        token: admin.token,
        body: providerBody(name, { provider_type: "google", issuer_url: null }),
      });
      expect(google.body).toMatchObject({ issuer_url: "https://accounts.google.com" });
      expect((await api("DELETE", `/admin/sso/providers/${google.body.id as string}`, { token: admin.token })).status).toBe(204);
    });

    it("when a user who is not a system admin calls the admin routes, then 403", async () => {
      const user = await registerUser(api, "plain");
      expect((await api("GET", "/admin/sso/providers", { token: user.token })).status).toBe(403);
      expect((await api("POST", "/admin/sso/providers", { token: user.token, body: providerBody("e2e-nope") })).status).toBe(403);
    });

    it("when the issuer's name resolves (through dns.servers) to an internal address, then the admin test refuses it", async () => {
      const dns = await testDns(system.ports.dns);
      try {
        // a name only the system's DNS knows: the system resolver would not find it at all
        const host = `idp-${randomBytes(3).toString("hex")}.sso-e2e.example`;
        dns.zones.set(host, { a: ["10.20.30.40"] });
        const res = await api<{ success: boolean; message: string }>("POST", "/admin/sso/test", {
          token: admin.token,
          body: providerBody("e2e-internal", { issuer_url: `https://${host}` }),
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: false, message: "refused: the issuer is not a public address" });
      } finally {
        await dns.close();
      }
    });

    it("when the issuer's discovery document redirects, then the admin test refuses it without following", async () => {
      const res = await api<{ success: boolean; message: string }>("POST", "/admin/sso/test", {
        token: admin.token,
        body: providerBody("e2e-redirect", { issuer_url: `${issuer}/redirect` }),
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false });
      expect(res.body.message).toMatch(/redirect/);
    });

    it("when domain mappings are created, listed, replaced and previewed, then duplicates are 409 and the preview shows the roles", async () => {
      const world = await teamWithDomain(api);
      const pid = providerIds.main!;
      const domain = `${randomBytes(3).toString("hex")}.preview.test`;
      const body = { domain, org_id: world.orgId, team_id: world.teamId, org_role: "admin", team_role: "lead" };
      const created = await api<{ id: string }>("POST", `/admin/sso/providers/${pid}/domain-mappings`, { token: admin.token, body });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject(body);
      expect((await api("POST", `/admin/sso/providers/${pid}/domain-mappings`, { token: admin.token, body })).status).toBe(409);
      const badRole = await api("POST", `/admin/sso/providers/${pid}/domain-mappings`, {
        token: admin.token,
        body: { ...body, org_role: "emperor" },
      });
      expect(badRole.status).toBe(400);
      const unknownOrg = await api("POST", `/admin/sso/providers/${pid}/domain-mappings`, {
        token: admin.token,
        body: { ...body, org_id: randomUUID() },
      });
      expect(unknownOrg).toMatchObject({ status: 400, body: { code: "validation_error" } });
      const other = await teamWithDomain(api);
      const foreignTeam = await api("POST", `/admin/sso/providers/${pid}/domain-mappings`, {
        token: admin.token,
        body: { ...body, team_id: other.teamId },
      });
      expect(foreignTeam).toMatchObject({ status: 400, body: { code: "validation_error" } });

      const preview = await api("POST", "/admin/sso/domain-mappings/preview", {
        token: admin.token,
        body: { email: `ada@${domain}`, provider: NAMES.main },
      });
      expect(preview.body).toMatchObject({
        email: `ada@${domain}`,
        email_domain: domain,
        provider: NAMES.main,
        would_provision: true,
        org_role: "admin",
        team_assignments: [{ team_id: world.teamId, team_role: "lead" }],
      });
      const elsewhere = await api("POST", "/admin/sso/domain-mappings/preview", {
        token: admin.token,
        body: { email: "bob@nowhere.test", provider: NAMES.main },
      });
      expect(elsewhere.body).toMatchObject({ would_provision: false, matching_rules: [], team_assignments: [] });

      const put = await api("PUT", `/admin/sso/providers/${pid}/domain-mappings/${created.body.id}`, {
        token: admin.token,
        body: { ...body, org_role: "member", team_role: "member" },
      });
      expect(put).toMatchObject({ status: 200, body: { org_role: "member", team_role: "member" } });
      const listed = await api<{ data: Array<{ id: string }> }>("GET", `/admin/sso/providers/${pid}/domain-mappings?per_page=100`, {
        token: admin.token,
      });
      expect(listed.body.data.map((m) => m.id)).toContain(created.body.id);
      expect((await api("DELETE", `/admin/sso/providers/${pid}/domain-mappings/${created.body.id}`, { token: admin.token })).status).toBe(
        204,
      );
      expect((await api("DELETE", `/admin/sso/providers/${pid}/domain-mappings/${created.body.id}`, { token: admin.token })).status).toBe(
        404,
      );
    });
  });

  describe("signing in", () => {
    it("when a new user of a mapped domain signs in, then they are provisioned, the code exchanges once and a replayed state is 400", async () => {
      const world = await teamWithDomain(api);
      const domain = `${randomBytes(3).toString("hex")}.mapped.test`;
      const mapping = await api("POST", `/admin/sso/providers/${providerIds.main}/domain-mappings`, {
        token: admin.token,
        body: { domain, org_id: world.orgId, team_id: world.teamId, org_role: "admin", team_role: "lead" },
      });
      expect(mapping.status).toBe(201);
      const email = `new-${randomBytes(3).toString("hex")}@${domain}`;

      const back = await signInAtProvider(NAMES.main, email);
      expect(back.status).toBe(302);
      expect(back.location.startsWith(`${BASE_URL}/login?sso_code=`)).toBe(true);
      const code = ssoCodeOf(back.location)!;
      const first = await exchange(code, back.browser);
      expect(first.status).toBe(200);
      // the provider is not trusted for email: its claim lets it create the account, not vouch for the address
      expect(first.body.user).toMatchObject({ email, email_verified: false, sso_provider: NAMES.main });
      const me = await api<{ id: string; email: string }>("GET", "/auth/me", { token: first.body.tokens.access_token });
      expect(me).toMatchObject({ status: 200, body: { email } });
      // provisioned into the mapping's org and team, with the mapped roles
      const token = first.body.tokens.access_token;
      // tenancy makes the memberships from identity's user.sso_provisioned event: soon, not within the callback
      const orgs = await waitFor(
        async () => {
          const r = await api<{ data: Array<{ id: string; role: string }> }>("GET", "/orgs", { token });
          return r.body.data.length > 0 ? r : null;
        },
        { what: "the provisioned membership" },
      );
      expect(orgs.body.data).toEqual([expect.objectContaining({ id: world.orgId, role: "admin" })]);
      const team = await api<{ id: string }>("GET", `/orgs/${world.orgId}/teams/${world.teamId}`, { token });
      expect(team).toMatchObject({ status: 200, body: { id: world.teamId } });
      const members = await api<{ data: Array<{ user_id: string; role: string }> }>(
        "GET",
        `/orgs/${world.orgId}/teams/${world.teamId}/members?per_page=100`,
        { token },
      );
      expect(members.body.data).toContainEqual(expect.objectContaining({ user_id: me.body.id, role: "lead" }));

      expect((await exchange(code, back.browser)).status).toBe(401);
      const replay = await back.browser.get(back.callbackUrl);
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ code: "validation_error" });

      const identities = await api<{ data: Array<{ provider: string; subject: string; email: string }> }>("GET", "/auth/me/sso", {
        token: first.body.tokens.access_token,
      });
      expect(identities.body.data).toEqual([expect.objectContaining({ provider: NAMES.main, subject: email, email })]);
      // the only way this user signs in: unlinking it would lock them out
      const unlink = await api("DELETE", `/auth/me/sso/${NAMES.main}`, { token: first.body.tokens.access_token });
      expect(unlink).toMatchObject({ status: 409, body: { code: "conflict" } });
    });

    it("when the provider does not vouch for the email, or nothing allows provisioning, then the browser lands on #error", async () => {
      const unverified = await signInAtProvider(NAMES.main, `unverified+someone-${tag}@unmapped.test`);
      expect(unverified.location).toBe(`${BASE_URL}/login#error=email_not_verified`);
      const unmapped = await signInAtProvider(NAMES.main, `someone-${randomBytes(3).toString("hex")}@unmapped.test`);
      expect(unmapped.location).toBe(`${BASE_URL}/login#error=not_provisioned`);
    });

    it("when a password user with a verified address signs in with a provider trusted for email, then it is linked to that account and can be unlinked", async () => {
      const user = await verifiedUser("linked");
      const back = await signInAtProvider(NAMES.trusted, user.email);
      const signedIn = await exchange(ssoCodeOf(back.location)!, back.browser);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user.id).toBe(user.userId);
      const token = signedIn.body.tokens.access_token;
      const listed = await api<{ data: Array<{ provider: string }> }>("GET", "/auth/me/sso", { token });
      expect(listed.body.data.map((i) => i.provider)).toEqual([NAMES.trusted]);
      const unlink = await api("DELETE", `/auth/me/sso/${NAMES.trusted}`, { token });
      expect(unlink).toMatchObject({ status: 200, body: { message: expect.any(String) } });
      expect((await api<{ data: unknown[] }>("GET", "/auth/me/sso", { token })).body.data).toEqual([]);
      expect((await api("DELETE", `/auth/me/sso/${NAMES.trusted}`, { token })).status).toBe(404);
    });

    it("when a signed-in user links a provider account with a ticket, then it is linked to that user (whatever its email), once, and the ticket is single-use", async () => {
      const user = await registerUser(api, "linker");
      // linking is finished in the browser the user is signed in with (its session cookie)
      const browser = new Browser();
      const token = await passwordLoginIn(browser, user.email);
      const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token });
      expect(ticket.status).toBe(201);
      // the provider account has an email of its own: linking, unlike signing in, does not go by email
      const account = `linked-${randomBytes(3).toString("hex")}@idp.example.test`;
      const start = `/auth/sso/${NAMES.main}?intent=link&ticket=${ticket.body.ticket}`;
      const back = await signInAtProvider(NAMES.main, account, { start, browser });
      expect(back.status).toBe(302);
      expect(back.location).toBe(`${BASE_URL}/settings#sso_linked=${NAMES.main}`);
      const listed = await api<{ data: Array<{ provider: string; email: string }> }>("GET", "/auth/me/sso", { token: user.token });
      expect(listed.body.data).toEqual([expect.objectContaining({ provider: NAMES.main, email: account })]);
      // that provider account now signs this user in
      const login = await signInAtProvider(NAMES.main, account);
      const signedIn = await exchange(ssoCodeOf(login.location)!, login.browser);
      expect(signedIn.body.user.id).toBe(user.userId);
      // the ticket was spent by the first link
      const again = await fetch(`${system.gatewayUrl}/api/v1${start}`, {
        redirect: "manual",
        headers: { "x-forwarded-for": newClientIp() },
      });
      expect(again.status).toBeGreaterThanOrEqual(400);
      expect(again.status).toBeLessThan(500);
      // another user cannot take the same provider account
      const other = await registerUser(api, "linker2");
      const otherBrowser = new Browser();
      const otherToken = await passwordLoginIn(otherBrowser, other.email);
      const otherTicket = await api<{ ticket: string }>("POST", "/ws/ticket", { token: otherToken });
      const taken = await signInAtProvider(NAMES.main, account, {
        start: `/auth/sso/${NAMES.main}?intent=link&ticket=${otherTicket.body.ticket}`,
        browser: otherBrowser,
      });
      expect(fragmentOf(taken.location).get("error")).toBe("already_linked");
      expect((await api<{ data: unknown[] }>("GET", "/auth/me/sso", { token: other.token })).body.data).toEqual([]);
    });

    it("when a link is started without a ticket, then 400", async () => {
      const res = await fetch(`${system.gatewayUrl}/api/v1/auth/sso/${NAMES.main}?intent=link`, { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "validation_error" });
    });

    it("when the provider is disabled or unknown, then starting a login is 404", async () => {
      for (const name of [NAMES.off, `e2e-${tag}-unknown`]) {
        const res = await fetch(`${system.gatewayUrl}/api/v1/auth/sso/${name}`, { redirect: "manual" });
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ code: "not_found" });
      }
    });

    it("when the user is at the session limit, then the callback redirects with the conflict and resolve completes the login", async () => {
      const user = await verifiedUser("capped");
      const capped = await api("PATCH", `/admin/users/${user.userId}`, { token: admin.token, body: { max_sessions: 1 } });
      expect(capped.status).toBe(200);

      const back = await signInAtProvider(NAMES.trusted, user.email);
      expect(back.location.startsWith(`${BASE_URL}/login#session_conflict=true&pending_token=`)).toBe(true);
      const fragment = fragmentOf(back.location);
      expect(fragment.get("limit")).toBe("1");
      const pendingToken = fragment.get("pending_token")!;
      const pending = await back.browser.json<{ sessions: Array<{ id: string }>; limit: number }>(
        "GET",
        `${system.gatewayUrl}/api/v1/auth/login/pending-sessions?token=${encodeURIComponent(pendingToken)}`,
      );
      expect(pending.status).toBe(200);
      expect(pending.body.limit).toBe(1);
      expect(pending.body.sessions).toHaveLength(1);
      const resolved = await back.browser.json<{ user: { id: string } }>(
        "POST",
        `${system.gatewayUrl}/api/v1/auth/login/resolve`,
        { pending_token: pendingToken, revoke_session_id: pending.body.sessions[0]!.id },
        { "x-forwarded-for": newClientIp() },
      );
      expect(resolved).toMatchObject({ status: 200, body: { user: { id: user.userId } } });
      // the registration's session was the one revoked
      expect((await api("GET", "/auth/me", { token: user.token })).status).toBe(401);
    });

    it("when an API key calls the identity routes, then they are refused", async () => {
      const world = await teamWithDomain(api);
      const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
        token: world.owner.token,
        body: { name: "k", scopes: ["team.view"] },
      });
      expect(key.status).toBe(201);
      expect((await api("DELETE", `/auth/me/sso/${NAMES.main}`, { token: key.body.raw_key })).status).toBe(403);
      expect((await api("GET", "/admin/sso/providers", { token: key.body.raw_key })).status).toBe(403);
    });
  });

  describe("accounts the provider did not make (pre-account takeover)", () => {
    /** An attacker's registration of someone else's address, with a password, never verified. */
    async function preRegister(email: string) {
      const res = await api<{ user: { id: string; email_verified: boolean } }>("POST", "/auth/register", {
        body: { email, password: STRONG_PASSWORD, display_name: "Not the owner" },
        headers: { "x-forwarded-for": newClientIp() },
      });
      expect(res).toMatchObject({ status: 201, body: { user: { email_verified: false } } });
      return res.body.user.id;
    }

    it("when an attacker pre-registered the victim's address unverified, then the victim's SSO login is refused with the link message, the attacker's password still works and no identity is linked", async () => {
      const victim = `victim-${randomBytes(4).toString("hex")}@example.test`;
      const attackerId = await preRegister(victim);
      // refused by a provider trusted for email too: the local account's address was never proven
      for (const name of [NAMES.main, NAMES.trusted]) {
        const back = await signInAtProvider(name, victim);
        expect(back).toMatchObject({ status: 302, location: `${BASE_URL}/login#error=link_required` });
      }
      const attacker = new Browser();
      const token = await passwordLoginIn(attacker, victim);
      const me = await api<{ id: string }>("GET", "/auth/me", { token });
      expect(me.body.id).toBe(attackerId);
      expect((await api<{ data: unknown[] }>("GET", "/auth/me/sso", { token })).body.data).toEqual([]);
      // the owner of the address, once signed in with the password, links the provider from the account page
      const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token });
      const linked = await signInAtProvider(NAMES.trusted, victim, {
        start: `/auth/sso/${NAMES.trusted}?intent=link&ticket=${ticket.body.ticket}`,
        browser: attacker,
      });
      expect(linked.location).toBe(`${BASE_URL}/settings#sso_linked=${NAMES.trusted}`);
    });

    it("when the local account's address is verified, then only a provider trusted for email links to it", async () => {
      const user = await verifiedUser("verified");
      const untrusted = await signInAtProvider(NAMES.main, user.email);
      expect(untrusted.location).toBe(`${BASE_URL}/login#error=link_required`);
      const trusted = await signInAtProvider(NAMES.trusted, user.email);
      const signedIn = await exchange(ssoCodeOf(trusted.location)!, trusted.browser);
      expect(signedIn).toMatchObject({ status: 200, body: { user: { id: user.userId, email_verified: true } } });
      const listed = await api<{ data: Array<{ provider: string }> }>("GET", "/auth/me/sso", { token: user.token });
      expect(listed.body.data.map((i) => i.provider)).toEqual([NAMES.trusted]);
    });

    it("when the ID token has no email_verified claim, then only a provider trusted for email takes the address, and the account it creates is verified", async () => {
      const email = `noclaim-${randomBytes(4).toString("hex")}@unmapped.test`;
      const untrusted = await signInAtProvider(NAMES.main, `noclaim+${email}`);
      expect(untrusted.location).toBe(`${BASE_URL}/login#error=email_not_verified`);
      const trusted = await signInAtProvider(NAMES.trusted, `noclaim+${email}`);
      const signedIn = await exchange(ssoCodeOf(trusted.location)!, trusted.browser);
      expect(signedIn).toMatchObject({ status: 200, body: { user: { email, email_verified: true, sso_provider: NAMES.trusted } } });
    });
  });

  describe("bound to the browser that started it", () => {
    it("when a login starts, then the browser gets an HttpOnly, SameSite=Lax flow cookie on the auth paths, kept by a second start", async () => {
      const first = await fetch(`${system.gatewayUrl}/api/v1/auth/sso/${NAMES.main}`, { redirect: "manual" });
      expect(first.status).toBe(302);
      const cookie = first.headers.getSetCookie().find((c) => c.startsWith("bb_sso_flow="));
      expect(cookie).toBeDefined();
      const attributes = cookie!.split(";").map((a) => a.trim().toLowerCase());
      expect(attributes).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/api/v1/auth"]));
      expect(attributes.some((a) => a.startsWith("max-age="))).toBe(true);
      // a second login in another tab of the same browser keeps the cookie, so the first still completes
      const pair = cookie!.split(";")[0]!;
      const second = await fetch(`${system.gatewayUrl}/api/v1/auth/sso/${NAMES.main}`, { redirect: "manual", headers: { cookie: pair } });
      expect(
        second.headers
          .getSetCookie()
          .find((c) => c.startsWith("bb_sso_flow="))
          ?.split(";")[0],
      ).toBe(pair);
    });

    it("when the callback is opened in another browser, then it is refused and nobody is signed in", async () => {
      const user = await verifiedUser("elsewhere");
      const other = new Browser();
      const back = await signInAtProvider(NAMES.trusted, user.email, { callbackIn: other });
      expect(back).toMatchObject({ status: 302, location: `${BASE_URL}/login#error=other_browser` });
      expect((await api<{ data: unknown[] }>("GET", "/auth/me/sso", { token: user.token })).body.data).toEqual([]);
    });

    it("when the one-time code is exchanged in another browser, then 401, and it still works in the browser that started", async () => {
      const user = await verifiedUser("exchange");
      const back = await signInAtProvider(NAMES.trusted, user.email);
      const code = ssoCodeOf(back.location)!;
      expect(await exchange(code, new Browser())).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
      expect(back.browser.has(system.gatewayUrl, "bb_sso_flow")).toBe(true);
      expect(await exchange(code, back.browser)).toMatchObject({ status: 200, body: { user: { id: user.userId } } });
    });

    it("when the session-conflict fragment is used in another browser, then its sessions are not shown and it resolves nothing", async () => {
      const user = await verifiedUser("conflict");
      expect((await api("PATCH", `/admin/users/${user.userId}`, { token: admin.token, body: { max_sessions: 1 } })).status).toBe(200);
      const back = await signInAtProvider(NAMES.trusted, user.email);
      const pendingToken = fragmentOf(back.location).get("pending_token")!;
      expect(pendingToken).toBeTruthy();
      const other = new Browser();
      const listed = await other.json(
        "GET",
        `${system.gatewayUrl}/api/v1/auth/login/pending-sessions?token=${encodeURIComponent(pendingToken)}`,
      );
      expect(listed).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
      const own = await back.browser.json<{ sessions: Array<{ id: string }> }>(
        "GET",
        `${system.gatewayUrl}/api/v1/auth/login/pending-sessions?token=${encodeURIComponent(pendingToken)}`,
      );
      expect(own.status).toBe(200);
      const body = { pending_token: pendingToken, revoke_session_id: own.body.sessions[0]!.id };
      const resolveUrl = `${system.gatewayUrl}/api/v1/auth/login/resolve`;
      expect(await other.json("POST", resolveUrl, body, { "x-forwarded-for": newClientIp() })).toMatchObject({ status: 401 });
      // the registration's session is untouched, and the browser that started still resolves
      expect((await api("GET", "/auth/me", { token: user.token })).status).toBe(200);
      const resolved = await back.browser.json("POST", resolveUrl, body, { "x-forwarded-for": newClientIp() });
      expect(resolved).toMatchObject({ status: 200, body: { user: { id: user.userId } } });
    });

    it("when a link is started or finished without the linking user's session, then it is refused and nothing is linked", async () => {
      const user = await registerUser(api, "forced");
      const account = `forced-${randomBytes(3).toString("hex")}@idp.example.test`;
      const startLink = async (browser: Browser) => {
        const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token: user.token });
        expect(ticket.status).toBe(201);
        return browser.get(`${system.gatewayUrl}/api/v1/auth/sso/${NAMES.main}?intent=link&ticket=${ticket.body.ticket}`, {
          "x-forwarded-for": newClientIp(),
        });
      };
      // a ticket of the user's, opened in a browser with no session (sent to a victim, say)
      const bare = await startLink(new Browser());
      expect(bare.status).toBe(302);
      expect(bare.headers.get("location")).toBe(`${BASE_URL}/login#error=link_session_required`);
      // or in a browser signed in as someone else
      const someone = await registerUser(api, "someone");
      const elsewhere = new Browser();
      await passwordLoginIn(elsewhere, someone.email);
      expect((await startLink(elsewhere)).headers.get("location")).toBe(`${BASE_URL}/login#error=link_session_required`);
      // started in the user's browser, but the user signed out before the provider sent the browser back
      const own = new Browser();
      const token = await passwordLoginIn(own, user.email);
      const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token });
      const signedOut = await signInAtProvider(NAMES.main, account, {
        start: `/auth/sso/${NAMES.main}?intent=link&ticket=${ticket.body.ticket}`,
        browser: own,
        beforeCallback: async () => {
          expect((await own.json("POST", `${system.gatewayUrl}/api/v1/auth/logout`, {})).status).toBe(200);
        },
      });
      expect(signedOut.location).toBe(`${BASE_URL}/login#error=link_session_required`);
      for (const t of [user.token, someone.token]) {
        expect((await api<{ data: unknown[] }>("GET", "/auth/me/sso", { token: t })).body.data).toEqual([]);
      }
    });
  });

  describe("enforce_sso", () => {
    const passwordLogin = (email: string) =>
      api<{ code: string; error: string }>("POST", "/auth/login", {
        body: { email, password: STRONG_PASSWORD },
        headers: { "x-forwarded-for": newClientIp() },
      });

    it("when an org enforces SSO, then its members' password logins are 403 and others' still pass", async () => {
      const world = await teamWithDomain(api);
      const member = await registerUser(api, "enforced");
      const outsider = await registerUser(api, "outsider");
      const added = await api("POST", `/orgs/${world.orgId}/members/add`, {
        token: world.owner.token,
        body: { user_id: member.userId, role: "member" },
      });
      expect(added.status).toBe(201);
      expect((await passwordLogin(member.email)).status).toBe(200);

      const set = await api("PATCH", `/orgs/${world.orgId}/settings`, { token: world.owner.token, body: { enforce_sso: true } });
      expect(set).toMatchObject({ status: 200, body: { enforce_sso: true } });

      const refused = await passwordLogin(member.email);
      expect(refused).toMatchObject({ status: 403, body: { code: "forbidden" } });
      expect(refused.body.error).toMatch(/single sign-on/);
      expect((await passwordLogin(world.owner.email)).status).toBe(403);
      expect((await passwordLogin(outsider.email)).status).toBe(200);
      // a wrong password is still a plain 401: the refusal says nothing without the password
      const wrong = await api("POST", "/auth/login", {
        body: { email: member.email, password: `${STRONG_PASSWORD}-wrong` },
        headers: { "x-forwarded-for": newClientIp() },
      });
      expect(wrong.status).toBe(401);
    });

    it("when tenancy cannot say whether an org enforces SSO, then a password login fails closed (503); once it answers, the login works", async () => {
      const user = await registerUser(api, "fail-closed");
      try {
        await system.stopProcess("tenancy");
        const down = await passwordLogin(user.email);
        expect(down).toMatchObject({ status: 503, body: { error: "sign-in is temporarily unavailable, try again shortly" } });
      } finally {
        await system.startProcess("tenancy");
      }
      expect((await passwordLogin(user.email)).status).toBe(200);
    });
  });

  describe("provisioning while tenancy is down", () => {
    it("when tenancy is down at a new user's first SSO login, then the sign-in works and the mapped memberships appear once it is back", async () => {
      const world = await teamWithDomain(api);
      const domain = `${randomBytes(3).toString("hex")}.durable.test`;
      const mapping = await api("POST", `/admin/sso/providers/${providerIds.main}/domain-mappings`, {
        token: admin.token,
        body: { domain, org_id: world.orgId, team_id: world.teamId, org_role: "member", team_role: "lead" },
      });
      expect(mapping.status).toBe(201);
      const email = `durable-${randomBytes(3).toString("hex")}@${domain}`;
      let token = "";
      try {
        await system.stopProcess("tenancy");
        const back = await signInAtProvider(NAMES.main, email);
        expect(back.location.startsWith(`${BASE_URL}/login?sso_code=`)).toBe(true);
        const signedIn = await exchange(ssoCodeOf(back.location)!, back.browser);
        expect(signedIn.status).toBe(200);
        expect(signedIn.body.user).toMatchObject({ email, sso_provider: NAMES.main });
        token = signedIn.body.tokens.access_token;
      } finally {
        await system.startProcess("tenancy");
      }
      // identity wrote user.sso_provisioned with the user; tenancy consumes it once it runs again
      const orgs = await waitFor(
        async () => {
          const r = await api<{ data: Array<{ id: string; role: string }> }>("GET", "/orgs", { token });
          return r.status === 200 && r.body.data.length > 0 ? r : null;
        },
        { what: "the membership made from the event", timeoutMs: 30_000 },
      );
      expect(orgs.body.data).toEqual([expect.objectContaining({ id: world.orgId, role: "member" })]);
      const members = await api<{ data: Array<{ email: string; role: string }> }>(
        "GET",
        `/orgs/${world.orgId}/teams/${world.teamId}/members?per_page=100`,
        { token },
      );
      expect(members.body.data).toContainEqual(expect.objectContaining({ email, role: "lead" }));
    });
  });
});
