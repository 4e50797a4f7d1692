import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apiClient } from "./clients";
import { registerOperator } from "./shared-system";
import { System } from "./system";
import { STRONG_PASSWORD } from "./world";

const CLIENT_ID = "burnbox-github-e2e";
const CLIENT_SECRET = `gh-secret-${randomBytes(8).toString("hex")}`;

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });

/**
 * GitHub's OAuth2 and API as the github preset uses them, on 127.0.0.1: authorize (the user has
 * already consented: straight back with a code), access_token (client_secret_basic and the PKCE
 * verifier checked), /user and /user/emails for the bearer token.
 */
async function startFakeGithub(account: { id: number; login: string; email: string; verified: boolean }) {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = new Set<string>();
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      seen.push(`${req.method} ${url.pathname}`);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
        const q = url.searchParams;
        if (q.get("client_id") !== CLIENT_ID || q.get("code_challenge_method") !== "S256") return json(400, { error: "bad request" });
        const code = randomBytes(10).toString("hex");
        codes.set(code, { challenge: q.get("code_challenge") ?? "", redirectUri: q.get("redirect_uri") ?? "" });
        const back = new URL(q.get("redirect_uri") ?? "");
        back.searchParams.set("code", code);
        back.searchParams.set("state", q.get("state") ?? "");
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
        const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString("utf8");
        const [id, secret] = basic.split(":").map((s) => decodeURIComponent(s));
        const form = new URLSearchParams(await body(req));
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (id !== CLIENT_ID || secret !== CLIENT_SECRET) return json(401, { error: "invalid_client" });
        if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get("redirect_uri"))
          return json(400, { error: "invalid_grant" });
        const token = randomBytes(16).toString("hex");
        tokens.add(token);
        return json(200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
      }
      const token = (req.headers.authorization ?? "").replace(/^(Bearer|token) /i, "");
      if (!tokens.has(token)) return json(401, { message: "Bad credentials" });
      if (url.pathname === "/user") return json(200, { id: account.id, login: account.login, name: null });
      if (url.pathname === "/user/emails") {
        return json(200, [
          { email: `other-${account.email}`, primary: false, verified: true },
          { email: account.email, primary: true, verified: account.verified },
        ]);
      }
      return json(404, { message: "Not Found" });
    })();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, account, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A browser, as far as BurnBox sees it: the cookies the gateway set (the SSO flow cookie, the
 * session's) go back with each of its requests; the GitHub stand-in needs none.
 */
function browser() {
  const jar = new Map<string, string>();
  return async (url: string | URL, init: { method?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = init.body === undefined ? {} : { "content-type": "application/json" };
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(url, {
      method: init.method ?? "GET",
      headers,
      redirect: "manual",
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(";")[0]!;
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    return res;
  };
}
type Browser = ReturnType<typeof browser>;

/**
 * The github preset end to end (issue #16): plain OAuth2 with PKCE against a GitHub stand-in on
 * 127.0.0.1 (`sso.github_url` and `sso.github_api_url`, listed in `sso.unsafe_allowed_issuers`),
 * the verified primary email read from the API. This file runs a system of its own, since the
 * GitHub origins are start-up settings.
 */
describe("single sign-on with the github preset", () => {
  const email = `octo-${randomBytes(3).toString("hex")}@github-e2e.test`;
  const adminEmail = `root-${randomBytes(3).toString("hex")}@github-e2e.test`;
  const name = "gh-e2e";
  let github: Awaited<ReturnType<typeof startFakeGithub>>;
  let system: System;
  let api: ReturnType<typeof apiClient>;
  let adminToken = "";

  /** Like a browser: the gateway sends it to GitHub, which sends it back to the callback (opened in `callbackIn`). */
  async function viaGithub(start: Browser, callbackIn: Browser = start) {
    const begin = await start(`${system.gatewayUrl}/api/v1/auth/sso/${name}`);
    expect(begin.status).toBe(302);
    const authorize = new URL(begin.headers.get("location")!);
    const atGithub = await fetch(authorize, { redirect: "manual" });
    expect(atGithub.status).toBe(302);
    const callback = new URL(atGithub.headers.get("location")!);
    const throughGateway = `${system.gatewayUrl}${callback.pathname}${callback.search}`;
    const back = await callbackIn(throughGateway);
    return { authorize, throughGateway, status: back.status, location: new URL(back.headers.get("location") ?? "/", system.gatewayUrl) };
  }

  beforeAll(async () => {
    github = await startFakeGithub({ id: 583231, login: "octocat", email, verified: true });
    system = await System.start({
      identity: {
        BB_ENCRYPTION_KEY: "6f".repeat(32),
        BB_SSO_UNSAFE_ALLOWED_ISSUERS: "127.0.0.1",
        BB_SSO_GITHUB_URL: github.origin,
        BB_SSO_GITHUB_API_URL: github.origin,
      },
    });
    api = apiClient(system.gatewayUrl);
    // the installation's first admin, made by first-run setup (registering an address makes no admin)
    adminToken = (await registerOperator(system, adminEmail)).token;
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
    await github?.close();
  });

  it("when a new user signs in with GitHub, then the verified primary email provisions them, the code exchanges once and /auth/me answers", async () => {
    const provider = await api<{ id: string }>("POST", "/admin/sso/providers", {
      token: adminToken,
      body: { name, provider_type: "github", label: "GitHub", client_id: CLIENT_ID, client_secret: CLIENT_SECRET, auto_provision: true },
    });
    expect(provider.status).toBe(201);
    const tested = await api("POST", "/admin/sso/test", { token: adminToken, body: { provider_id: provider.body.id } });
    expect(tested.body).toMatchObject({
      success: true,
      endpoints: { authorization: `${github.origin}/login/oauth/authorize`, token: `${github.origin}/login/oauth/access_token` },
    });

    const inBrowser = browser();
    const back = await viaGithub(inBrowser);
    expect(back.authorize.origin + back.authorize.pathname).toBe(`${github.origin}/login/oauth/authorize`);
    expect(back.authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(back.authorize.searchParams.get("scope")).toBe("read:user user:email");
    expect(back.status).toBe(302);
    const code = back.location.searchParams.get("sso_code");
    expect(code).toBeTruthy();
    expect(github.seen).toEqual(expect.arrayContaining(["POST /login/oauth/access_token", "GET /user", "GET /user/emails"]));

    const exchange = () => inBrowser(`${system.gatewayUrl}/api/v1/auth/sso/exchange`, { method: "POST", body: { code } });
    const exchanged = await exchange();
    expect(exchanged.status).toBe(200);
    const out = (await exchanged.json()) as { user: { id: string; email: string; sso_provider: string }; tokens: { access_token: string } };
    expect(out.user).toMatchObject({ email, sso_provider: name });
    expect((await exchange()).status).toBe(401);
    const me = await api<{ email: string }>("GET", "/auth/me", { token: out.tokens.access_token });
    expect(me).toMatchObject({ status: 200, body: { email } });
    const identities = await api<{ data: Array<{ provider: string; subject: string; email: string }> }>("GET", "/auth/me/sso", {
      token: out.tokens.access_token,
    });
    expect(identities.body.data).toEqual([expect.objectContaining({ provider: name, subject: "583231", email })]);
    // the state was single use
    expect((await inBrowser(back.throughGateway)).status).toBe(400);

    // GitHub no longer vouches for the primary address: the browser lands on #error, nobody signs in
    github.account.verified = false;
    github.account.email = `unverified-${email}`;
    const refused = await viaGithub(browser());
    expect(refused.status).toBe(302);
    expect(refused.location.hash).toBe("#error=email_not_verified");
  });

  it("when someone registered GitHub's verified primary address with a password and never verified it, then the GitHub login is refused with the link message and links nothing", async () => {
    const victim = `victim-${randomBytes(3).toString("hex")}@github-e2e.test`;
    const registered = await api<{ tokens: { access_token: string } }>("POST", "/auth/register", {
      body: { email: victim, password: STRONG_PASSWORD, display_name: "Not the owner" },
    });
    expect(registered.status).toBe(201);
    Object.assign(github.account, { id: 900001, login: "victim", email: victim, verified: true });
    const back = await viaGithub(browser());
    expect(back.location.hash).toBe("#error=link_required");
    const login = await api("POST", "/auth/login", { body: { email: victim, password: STRONG_PASSWORD } });
    expect(login.status).toBe(200);
    const identities = await api<{ data: unknown[] }>("GET", "/auth/me/sso", { token: registered.body.tokens.access_token });
    expect(identities.body.data).toEqual([]);
  });

  it("when GitHub's callback is opened in another browser than the one that started, then it is refused and nobody signs in", async () => {
    const fresh = `fresh-${randomBytes(3).toString("hex")}@github-e2e.test`;
    Object.assign(github.account, { id: 900002, login: "fresh", email: fresh, verified: true });
    const back = await viaGithub(browser(), browser());
    expect(back.location.hash).toBe("#error=other_browser");
    // nobody was provisioned: the address is still free to register
    const registered = await api("POST", "/auth/register", { body: { email: fresh, password: STRONG_PASSWORD, display_name: "Fresh" } });
    expect(registered.status).toBe(201);
  });
});
