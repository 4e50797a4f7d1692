import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket, SmtpSession } from "./clients";
import { SharedSystem } from "./shared-system";
import { alias, createHook, Receiver, type Hook, type World } from "./webhook-kit";
import { createInbox, teamWithDomain } from "./world";

interface Extracted {
  codes: Array<{ value: string; context: string }>;
  links: Array<{ url: string; text: string; kind: string }>;
}
type Page<T> = { data: T[]; total: number };
type EmailView = { id: string; subject: string; extracted: Extracted };

const CRLF = "\r\n";
const NOTHING: Extracted = { codes: [], links: [] };

function message(o: { to: string; subject: string; headers?: string[]; contentType: string; body: string }): string {
  return [
    "From: Acme <noreply@acme.example.org>",
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Message-ID: <${randomBytes(8).toString("hex")}@e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    ...(o.headers ?? []),
    `Content-Type: ${o.contentType}`,
    "",
    o.body,
  ].join(CRLF);
}

/**
 * A sign-up mail as many senders build it: HTML only, below a multipart/related with its logo (no
 * text part), the code in a table cell beside its label, a verify link and a footer link.
 */
function signUpMail(to: string, subject: string): string {
  const boundary = `rel-${randomBytes(6).toString("hex")}`;
  const html = [
    "<html><head><title>Welcome 2026</title><style>td { padding: 4px }</style></head><body>",
    '<img src="cid:logo@acme" alt="Acme">',
    "<p>Welcome to Acme!</p>",
    "<table><tr><td>Your verification code</td><td><b>482 913</b></td></tr></table>",
    '<p><a href="https://app.acme.example.org/verify-email?token=q8Zt1">Confirm my email</a></p>',
    '<p style="font-size:10px"><a href="https://acme.example.org/privacy">Privacy</a></p>',
    "</body></html>",
  ].join("\n");
  return message({
    to,
    subject,
    contentType: `multipart/related; boundary="${boundary}"`,
    body: [
      `--${boundary}`,
      "Content-Type: text/html; charset=utf-8",
      "",
      html,
      `--${boundary}`,
      "Content-Type: image/png",
      "Content-ID: <logo@acme>",
      'Content-Disposition: inline; filename="logo.png"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("not really a png").toString("base64"),
      `--${boundary}--`,
    ].join(CRLF),
  });
}

/** A password reset as plain text: the link in the text, a split code near "security code". */
const resetMail = (to: string, subject: string) =>
  message({
    to,
    subject,
    contentType: "text/plain; charset=utf-8",
    body: [
      "Hi,",
      "",
      "Someone asked to reset the password of your Acme account.",
      "Reset it here: https://app.acme.example.org/password/reset?token=Zx81Qp",
      "",
      "Or type the security code 7310-2291 on the reset page.",
    ].join(CRLF),
  });

/**
 * A newsletter with only an HTML part (mailparser renders a text from it, image URLs and all: that
 * rendering must not be read as the mail's text), unsubscribable by its List-Unsubscribe header.
 */
const newsletterMail = (to: string, subject: string) =>
  message({
    to,
    subject,
    headers: ["List-Unsubscribe: <mailto:leave@news.example.org>, <https://news.example.org/unsubscribe?u=42>"],
    contentType: "text/html; charset=utf-8",
    body: [
      "<html><body>",
      '<h1>Weekly digest</h1><img src="https://cdn.news.example.org/banner.png" alt="Banner">',
      '<p>New this week: <a href="https://news.example.org/articles/week-48">Read the articles</a></p>',
      '<p><a href="https://news.example.org/prefs?u=42">Unsubscribe</a></p>',
      "</body></html>",
    ].join("\n"),
  });

/** Neither code nor link: a year by its month, an amount, and "shopping" (no "pin" in it). */
const plainMail = (to: string, subject: string) =>
  message({
    to,
    subject,
    contentType: "text/plain; charset=utf-8",
    body: "Thanks for shopping with us on 27 November 2026. You paid $1250 for order 88213.",
  });

/**
 * Codes and links (extensions section 2) through the public ports: real mail over SMTP, then the
 * same `extracted` in GET /emails/:id, in the inbox's list, in the WebSocket frame and in the
 * webhook body.
 */
describe("codes and links found in received mail", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: World;

  beforeAll(async () => {
    world = await teamWithDomain(api);
  });

  it("when sign-up, reset, newsletter and plain mails arrive, then each view carries exactly their codes and links, and empty lists for none", async () => {
    const rx = await Receiver.start();
    try {
      const hook: Hook = await createHook(api, world, rx.url, ["email.received"]);
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("ex"));
      const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
      const socket = await openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inbox.id}?ticket=${ticket.body.ticket}`);

      // glued to a letter, the tag is never a run of digits (a subject's only run is a code)
      const tag = `t${randomBytes(3).toString("hex")}`;
      const mails: Array<{ subject: string; raw: string; expected: Extracted }> = [
        {
          subject: `Welcome to Acme ${tag}`,
          raw: signUpMail(inbox.full_address, `Welcome to Acme ${tag}`),
          expected: {
            codes: [{ value: "482913", context: "cme! Your verification code 482 913 Confirm my email Privacy" }],
            links: [
              { url: "https://app.acme.example.org/verify-email?token=q8Zt1", text: "Confirm my email", kind: "verify" },
              { url: "https://acme.example.org/privacy", text: "Privacy", kind: "other" },
            ],
          },
        },
        {
          subject: `Reset your password ${tag}`,
          raw: resetMail(inbox.full_address, `Reset your password ${tag}`),
          expected: {
            codes: [{ value: "73102291", context: "x81Qp Or type the security code 7310-2291 on the reset page." }],
            links: [{ url: "https://app.acme.example.org/password/reset?token=Zx81Qp", text: "", kind: "reset" }],
          },
        },
        {
          subject: `Weekly digest ${tag}`,
          raw: newsletterMail(inbox.full_address, `Weekly digest ${tag}`),
          expected: {
            codes: [],
            links: [
              { url: "https://news.example.org/articles/week-48", text: "Read the articles", kind: "other" },
              { url: "https://news.example.org/prefs?u=42", text: "Unsubscribe", kind: "unsubscribe" },
              { url: "https://news.example.org/unsubscribe?u=42", text: "", kind: "unsubscribe" },
            ],
          },
        },
        { subject: `Thanks for shopping ${tag}`, raw: plainMail(inbox.full_address, `Thanks for shopping ${tag}`), expected: NOTHING },
      ];

      const smtp = await SmtpSession.open(system.ports.smtp);
      try {
        for (const m of mails) {
          expect((await smtp.command("MAIL FROM:<noreply@acme.example.org>")).code).toBe(250);
          expect((await smtp.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
          expect((await smtp.data(m.raw)).code).toBe(250);
        }
      } finally {
        await smtp.quit();
      }

      // the WebSocket frames: each email's summary with its codes and links
      await waitFor(() => socket.frames.filter((f) => f.type === "email.received").length === mails.length || null, {
        what: "a frame per mail",
      });
      socket.ws.close();
      const frames = new Map(socket.frames.map((f) => [f.data.subject as string, f.data as unknown as EmailView]));
      // the webhook bodies (signatures checked by the receiver kit)
      const delivered = await waitFor(() => (rx.hits.length >= mails.length ? rx.deliveries(hook.secret) : null), {
        what: "a delivery per mail",
        timeoutMs: 20_000,
      });
      const bodies = new Map(
        delivered.map((d) => [d.body.data.subject as string, d.body.data as unknown as { email_id: string; extracted: Extracted }]),
      );
      // the inbox's list: the summaries
      const list = await api<Page<EmailView>>("GET", `/inboxes/${inbox.id}/emails?limit=10`, { token: world.owner.token });
      expect(list.status).toBe(200);
      const summaries = new Map(list.body.data.map((e) => [e.subject, e]));

      for (const m of mails) {
        const frame = frames.get(m.subject);
        expect({ subject: m.subject, extracted: frame?.extracted }).toEqual({ subject: m.subject, extracted: m.expected });
        const id = frame?.id ?? "";
        const email = await api<EmailView>("GET", `/emails/${id}`, { token: world.owner.token });
        expect(email.status).toBe(200);
        expect({ subject: m.subject, extracted: email.body.extracted }).toEqual({ subject: m.subject, extracted: m.expected });
        expect({ subject: m.subject, extracted: summaries.get(m.subject)?.extracted }).toEqual({
          subject: m.subject,
          extracted: m.expected,
        });
        const body = bodies.get(m.subject);
        expect(body?.email_id).toBe(id);
        expect({ subject: m.subject, extracted: body?.extracted }).toEqual({ subject: m.subject, extracted: m.expected });
      }
    } finally {
      await rx.close();
    }
  });

  it("when a link's path says one kind and its query another, then its kind is the path's", async () => {
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("pq"));
    const subject = `Your account t${randomBytes(3).toString("hex")}`;
    const raw = message({
      to: inbox.full_address,
      subject,
      contentType: "text/html; charset=utf-8",
      body: [
        '<p><a href="https://app.acme.example.org/account/verify?next=/password/reset">Continue</a></p>',
        '<p><a href="https://app.acme.example.org/login?confirm=1">Continue</a></p>',
      ].join("\n"),
    });
    const smtp = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await smtp.command("MAIL FROM:<noreply@acme.example.org>")).code).toBe(250);
      expect((await smtp.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
      expect((await smtp.data(raw)).code).toBe(250);
    } finally {
      await smtp.quit();
    }
    const list = await waitFor(
      async () => {
        const page = await api<Page<EmailView>>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token });
        return page.body.data?.length === 1 ? page.body.data : null;
      },
      { what: "the mail in the inbox" },
    );
    const email = await api<EmailView>("GET", `/emails/${list[0]?.id ?? ""}`, { token: world.owner.token });
    expect(email.status).toBe(200);
    expect(email.body.extracted.links).toEqual([
      { url: "https://app.acme.example.org/account/verify?next=/password/reset", text: "Continue", kind: "verify" },
      { url: "https://app.acme.example.org/login?confirm=1", text: "Continue", kind: "magic_link" },
    ]);
  });
});
