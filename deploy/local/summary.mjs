// What `npm start` prints once everything answers: the console first, and while setup is incomplete
// the setup page's link with its token (as a notebook server prints its login link), then the API,
// its docs, the WebSocket and the SMTP intake. The setup token is made once per checkout and kept
// in .data/ like the development secrets; start.mjs gives it to the tenancy as BB_SETUP_TOKEN.
//
//   node deploy/local/summary.test.mjs      its test, prints `N passed, N failed`
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The setup page's address with the token, the link the summary prints. */
export function setupLink(consoleUrl, token) {
  return `${consoleUrl.replace(/\/+$/, "")}/setup?token=${encodeURIComponent(token)}`;
}

/**
 * The summary's lines. `setupComplete`: false while the installation has no administrator (the
 * setup link is printed then), true after, undefined when the status could not be read (the link
 * is printed too: it does no harm once setup is done, the page leads into the console).
 */
export function summaryLines({ gatewayPort, smtpPort, trustedDomains, setupToken, setupComplete }) {
  const origin = `http://localhost:${gatewayPort}`;
  const lines = ["BurnBox is running. Ctrl-C stops everything.", `  Console    ${origin}/`];
  if (setupComplete !== true && setupToken) {
    lines.push(`  Setup      ${setupLink(origin, setupToken)}`);
    lines.push("             (first run: open this link to create the administrator, the first organization, team and domain)");
  }
  lines.push(
    `  API        ${origin}/api/v1`,
    `  API docs   ${origin}/api/v1/docs`,
    `  WebSocket  ws://localhost:${gatewayPort}/api/v1/ws/inboxes/<id>?ticket=<ticket>`,
    `  SMTP       localhost:${smtpPort}`,
    `  Trusted domain for local inboxes: ${trustedDomains} (and its subdomains)`,
  );
  return lines;
}

/** BB_SETUP_TOKEN when set; else the checkout's own, made on the first start and kept in .data/setup-token. */
export function setupToken(root, env) {
  if (env.BB_SETUP_TOKEN) return env.BB_SETUP_TOKEN;
  const file = path.join(root, ".data", "setup-token");
  if (existsSync(file)) {
    const known = readFileSync(file, "utf8").trim();
    if (known) return known;
  }
  const token = randomBytes(24).toString("base64url");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

/** Whether setup is complete (GET /api/v1/setup/status through the gateway); undefined when it cannot be read. */
export async function setupCompleted(gatewayPort) {
  try {
    const res = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/setup/status`);
    if (!res.ok) return undefined;
    const body = await res.json();
    return typeof body.completed === "boolean" ? body.completed : undefined;
  } catch {
    return undefined;
  }
}
