import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, SmtpSession } from "./clients";
import { testDns } from "./dns";
import { SharedSystem, SMTP_TLS_FIXTURES } from "./shared-system";
import { createInbox, registerUser, teamWithDomain } from "./world";

type Issue = {
  feature: string;
  clients_unsupported: string[];
  clients_partial: string[];
  line?: number;
  scored: boolean;
  notes: Record<string, string>;
};
type HtmlCheck = { score: number; clients: string[]; issues: Issue[] };
type LinkResult = { url: string; status: number | null; ok: boolean; redirect_to?: string; error?: string };

const CRLF = "\r\n";

function mail(o: { to: string; subject: string; contentType: string; body: string }): string {
  return [
    "From: Acme <noreply@acme.example.org>",
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Message-ID: <${randomBytes(8).toString("hex")}@e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    `Content-Type: ${o.contentType}`,
    "",
    o.body,
  ].join(CRLF);
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
};

/**
 * Checks on received mail (extensions section 7) through the public ports: the HTML report of a
 * mail built with features Outlook lacks, and the link check against the test's own HTTP servers
 * on 127.0.0.1 (which the e2e system's `webhooks.unsafe_allowed_targets` lets through, as it does
 * for webhook receivers), a TLS server with an untrusted certificate, loopback addresses off the
 * allow-list, and a name the test DNS does not know.
 */
describe("checks on received mail", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  const tag = randomBytes(3).toString("hex");

  beforeAll(async () => {
    world = await teamWithDomain(api);
  });

  async function deliver(inbox: { id: string; full_address: string }, subject: string, contentType: string, body: string): Promise<string> {
    const smtp = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await smtp.command("MAIL FROM:<noreply@acme.example.org>")).code).toBe(250);
      expect((await smtp.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
      expect((await smtp.data(mail({ to: inbox.full_address, subject, contentType, body }))).code).toBe(250);
    } finally {
      await smtp.quit();
    }
    return waitFor(
      async () => {
        const list = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, {
          token: world.owner.token,
        });
        return list.body.data.find((e) => e.subject === subject)?.id ?? null;
      },
      { what: `the mail "${subject}"` },
    );
  }

  describe("GET /emails/:id/html-check", () => {
    it("when the HTML uses flexbox, border-radius and <video>, then Outlook on Windows is named among the clients lacking them and the score is below 100", async () => {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `html-${tag}`);
      const html = [
        "<!doctype html>",
        "<html><head><style>",
        ".row { display: flex; border-radius: 8px; }",
        "</style></head><body>",
        '<div class="row"><video src="https://cdn.example.org/intro.mp4"></video><p>Hello</p></div>',
        "</body></html>",
      ].join("\n");
      const id = await deliver(inbox, `Fancy ${tag}`, "text/html; charset=utf-8", html);

      const report = await api<HtmlCheck>("GET", `/emails/${id}/html-check`, { token: world.owner.token });
      expect(report.status).toBe(200);
      expect(report.body.score).toBeGreaterThanOrEqual(0);
      expect(report.body.score).toBeLessThan(100);
      expect(report.body.clients).toEqual(expect.arrayContaining(["outlook.windows", "gmail.android"]));
      const lacking = report.body.issues.filter((i) => i.clients_unsupported.includes("outlook.windows"));
      expect(lacking.map((i) => i.feature)).toEqual(expect.arrayContaining(["css-display-flex", "css-border-radius", "html-video"]));
      expect(report.body.issues.find((i) => i.feature === "html-video")?.line).toBe(5);
      for (const issue of report.body.issues) {
        expect(issue.clients_unsupported.length + issue.clients_partial.length).toBeGreaterThan(0);
        if (issue.line !== undefined) expect(issue.line).toBeGreaterThan(0);
      }
    });

    it("when a plain mail is wrapped in <html><body>, then its score is 100 and the wrappers are listed with scored false and their clients' notes", async () => {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `wrapped-${tag}`);
      const id = await deliver(inbox, `Wrapped ${tag}`, "text/html; charset=utf-8", "<html><body><h1>Hi</h1><p>text</p></body></html>");

      const report = await api<HtmlCheck>("GET", `/emails/${id}/html-check`, { token: world.owner.token });
      expect(report.status).toBe(200);
      // <h1> and <p> are fully supported everywhere; <body> is the only issue and does not count
      expect(report.body.score).toBe(100);
      expect(report.body.issues.map((i) => [i.feature, i.scored])).toEqual([["html-body", false]]);
      const body = report.body.issues[0]!;
      expect(body.clients_unsupported).toContain("outlook.macos");
      expect(body.clients_partial).toContain("gmail.android");
      expect(body.notes["gmail.android"]).toMatch(/Replaced by a `<div>`/);
      for (const client of Object.keys(body.notes)) expect([...body.clients_unsupported, ...body.clients_partial]).toContain(client);
    });

    it("when the mail has no HTML part, or is another team's, then it is 404", async () => {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `plain-${tag}`);
      const id = await deliver(inbox, `Plain ${tag}`, "text/plain; charset=utf-8", "Just text.");
      expect((await api("GET", `/emails/${id}/html-check`, { token: world.owner.token })).status).toBe(404);
      const stranger = await registerUser(api, "stranger");
      const foreign = await api<{ error: string }>("GET", `/emails/${id}/html-check`, { token: stranger.token });
      const unknown = await api<{ error: string }>("GET", `/emails/00000000-0000-4000-8000-000000000000/html-check`, {
        token: stranger.token,
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);
    });
  });

  describe("POST /emails/:id/link-check", () => {
    const servers: Server[] = [];
    let web: number;
    let slow: number;
    let tlsPort: number;
    let closedPort: number;
    let dns: Awaited<ReturnType<typeof testDns>>;

    beforeAll(async () => {
      dns = await testDns(system.ports.dns);
      const site = createServer((req, res) => {
        if (req.url === "/ok") return res.writeHead(200, { "content-type": "text/plain" }).end(req.method === "HEAD" ? undefined : "fine");
        if (req.url === "/moved") return res.writeHead(302, { location: "/ok?from=moved" }).end();
        if (req.url === "/get-only") {
          if (req.method === "HEAD") return res.writeHead(405, { allow: "GET" }).end();
          return res.writeHead(200).end("got it");
        }
        res.writeHead(404).end();
      });
      // answers nothing: the link check gives up at its 5 s
      const hanging = createServer(() => undefined);
      const tls = createTlsServer(
        {
          cert: readFileSync(path.join(SMTP_TLS_FIXTURES, "smtp-test.crt")),
          key: readFileSync(path.join(SMTP_TLS_FIXTURES, "smtp-test.key")),
        },
        (_req, res) => res.writeHead(200).end(),
      );
      servers.push(site, hanging, tls);
      [web, slow, tlsPort] = await Promise.all([listen(site), listen(hanging), listen(tls)]);
      // a port nobody listens on: take one, then let it go
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      closedPort = (probe.address() as AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    });

    afterAll(async () => {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
      await dns.close();
    });

    it("when the links answer 200, 3xx, 404, 405 to HEAD, nothing, a bad certificate, or are off limits, then each is reported in the mail's order", async () => {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `links-${tag}`);
      const urls = [
        `http://127.0.0.1:${web}/ok`,
        `http://127.0.0.1:${web}/moved`,
        `http://127.0.0.1:${web}/missing`,
        `http://127.0.0.1:${web}/get-only`,
        `http://127.0.0.1:${slow}/hang`,
        `https://127.0.0.1:${tlsPort}/secure`,
        `http://127.0.0.1:${closedPort}/closed`,
        `http://127.0.0.2:${web}/ok`,
        "http://169.254.169.254/latest/meta-data/",
        `http://[::1]:${web}/ok`,
        `http://nowhere-${tag}.e2e.test/page`,
        `http://user:secret@127.0.0.1:${web}/ok`,
      ];
      const html = `<html><body>${urls.map((u, i) => `<p><a href="${u}">Link ${i}</a></p>`).join("\n")}</body></html>`;
      const id = await deliver(inbox, `Links ${tag}`, "text/html; charset=utf-8", html);

      const checked = await api<{ links: LinkResult[] }>("POST", `/emails/${id}/link-check`, { token: world.owner.token });
      expect(checked.status).toBe(200);
      expect(checked.body.links).toEqual([
        { url: urls[0], status: 200, ok: true },
        { url: urls[1], status: 302, ok: false, redirect_to: `http://127.0.0.1:${web}/ok?from=moved` },
        { url: urls[2], status: 404, ok: false },
        { url: urls[3], status: 200, ok: true },
        { url: urls[4], status: null, ok: false, error: "timeout" },
        { url: urls[5], status: null, ok: false, error: "tls" },
        { url: urls[6], status: null, ok: false, error: "unreachable" },
        { url: urls[7], status: null, ok: false, error: "refused" },
        { url: urls[8], status: null, ok: false, error: "refused" },
        { url: urls[9], status: null, ok: false, error: "refused" },
        { url: urls[10], status: null, ok: false, error: "unreachable" },
        { url: urls[11], status: null, ok: false, error: "invalid" },
      ]);
    });

    it("when the email is another team's or unknown, then it is 404 alike", async () => {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `links2-${tag}`);
      const id = await deliver(inbox, `Links 2 ${tag}`, "text/html; charset=utf-8", `<a href="http://127.0.0.1:${web}/ok">ok</a>`);
      const stranger = await registerUser(api, "stranger");
      const foreign = await api<{ error: string }>("POST", `/emails/${id}/link-check`, { token: stranger.token });
      const unknown = await api<{ error: string }>("POST", "/emails/00000000-0000-4000-8000-000000000000/link-check", {
        token: stranger.token,
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);
    });
  });
});
