import { randomBytes, randomUUID } from "node:crypto";

// The sign-up mail of the snapshot tests (snapshots, cli-snapshots): one HTML template with a text
// part, filled per send with what changes on every send (name, code, token, date), and the
// template's breakages the tests look for (a removed link, a dark-mode button, an unfilled variable).

const CRLF = "\r\n";

/** The sign-up mail of a made-up app: one template, filled per send. */
export function signupMail(
  to: string,
  v: { name: string; code: string; token: string; date: string; help?: boolean; darkButton?: string },
): string {
  const boundary = `b-${randomBytes(6).toString("hex")}`;
  const verify = `https://app.acme.test/verify?token=${v.token}&uid=${randomUUID()}`;
  const text = [`Hi ${v.name},`, "", `Your verification code is ${v.code}.`, `Verify your address: ${verify}`, "", `Sent ${v.date}`].join(
    CRLF,
  );
  const html = [
    "<!doctype html><html><head><style>",
    ".btn { background: #1a73e8; color: #ffffff; padding: 12px 20px; }",
    `@media (prefers-color-scheme: dark) { body { background: #111111; color: #eeeeee; } .btn { background: ${v.darkButton ?? "#8ab4f8"}; } }`,
    "</style></head><body>",
    `<p>Hi ${v.name},</p>`,
    `<p>Your verification code is <b>${v.code}</b>.</p>`,
    `<p><a class="btn" href="${verify}">Verify email</a></p>`,
    v.help === false ? "" : '<p><a href="https://app.acme.test/help">Help centre</a></p>',
    `<p style="color:#666666">Sent ${v.date}</p>`,
    "</body></html>",
  ].join(CRLF);
  return [
    "From: Acme <noreply@acme.example.org>",
    `To: ${to}`,
    `Subject: Welcome to Acme, ${v.name}`,
    `Message-ID: <${randomBytes(8).toString("hex")}@e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    text,
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "",
    html,
    `--${boundary}--`,
    "",
  ].join(CRLF);
}

/** A custom mask for the recipient's name, which no default can know. */
export const NAME_MASK = { pattern: "\\b(Alice|Bob|Carol)\\b", replace: "[name]" };
