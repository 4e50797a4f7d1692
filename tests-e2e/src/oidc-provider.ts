import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

/**
 * A real OpenID provider (oidc-provider 8) on 127.0.0.1, in a child process: it is an ES module,
 * which jest's CommonJS runtime cannot load. Its dev interactions accept any login; the login is
 * the subject and the email, verified unless it starts with `unverified+`; after `noclaim+` the ID
 * token has no `email_verified` claim at all (as some providers send it). `/redirect/...` answers
 * 302 to the real discovery document, for the SSRF test.
 */
const PROVIDER_SCRIPT = `
import http from "node:http";
import Provider from "oidc-provider";
const cfg = JSON.parse(process.env.OIDC_E2E);
const server = http.createServer();
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const issuer = "http://127.0.0.1:" + server.address().port;
const provider = new Provider(issuer, {
  clients: [{ client_id: cfg.client_id, client_secret: cfg.client_secret, redirect_uris: cfg.redirect_uris,
    grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" }],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  conformIdTokenClaims: false,
  cookies: { keys: ["burnbox-e2e-cookie-key"] },
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => {
      if (id.startsWith("noclaim+")) return { sub: id, email: id.slice(8), name: "SSO " + id.slice(8).split("@")[0] };
      const unverified = id.startsWith("unverified+");
      return { sub: id, email: unverified ? id.slice(11) : id, email_verified: !unverified, name: "SSO " + id.split("@")[0] };
    },
  }),
});
const callback = provider.callback();
server.on("request", (req, res) => {
  if (req.url.startsWith("/redirect/")) {
    res.writeHead(302, { location: issuer + "/.well-known/openid-configuration" });
    res.end();
    return;
  }
  callback(req, res);
});
process.stdout.write(JSON.stringify({ issuer }) + "\\n");
`;

export function startOidcProvider(
  redirectUris: string[],
  client: { id: string; secret: string },
): Promise<{ issuer: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", PROVIDER_SCRIPT], {
    cwd: path.resolve(__dirname, ".."),
    env: { ...process.env, OIDC_E2E: JSON.stringify({ client_id: client.id, client_secret: client.secret, redirect_uris: redirectUris }) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`OpenID provider exited (${code})`)));
    createInterface({ input: child.stdout }).once("line", (line) =>
      resolve({ issuer: (JSON.parse(line) as { issuer: string }).issuer, child }),
    );
  });
}
