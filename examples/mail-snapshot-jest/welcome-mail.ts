// The app under test's welcome mail: a template filled per sign-up (the name, a one-time code, a
// verification link with a token, the time it was sent), mailed over SMTP with nodemailer. The
// "broken" release is what a template change does to it quietly: the variable was renamed in the
// template but not in the code (so it shows as {{name}}), the help link was dropped, and the
// dark-mode rule paints the button the colour of the page.
import { randomBytes, randomInt } from "node:crypto";
import nodemailer from "nodemailer";

export type Release = "good" | "broken";

const TEMPLATES: Record<Release, { subject: string; text: string; html: string }> = {
  good: {
    subject: "Welcome to Example App, {{firstName}}",
    text: [
      "Hi {{firstName}},",
      "",
      "Your verification code is {{code}}.",
      "Or verify your address here: {{verifyUrl}}",
      "",
      "Help: https://app.example/help",
      "Sent {{sentAt}}",
    ].join("\n"),
    html: [
      "<!doctype html><html><head><style>",
      "body { font-family: sans-serif; margin: 24px; }",
      ".btn { display: inline-block; background: #1a73e8; color: #ffffff; padding: 12px 20px; text-decoration: none; }",
      "@media (prefers-color-scheme: dark) { body { background: #111111; color: #eeeeee; } .btn { background: #8ab4f8; color: #111111; } }",
      "</style></head><body>",
      "<h1>Welcome, {{firstName}}!</h1>",
      "<p>Your verification code is <b>{{code}}</b>.</p>",
      '<p><a class="btn" href="{{verifyUrl}}">Verify my address</a></p>',
      '<p><a href="https://app.example/help">Help centre</a></p>',
      '<p style="color:#777777">Sent {{sentAt}}</p>',
      "</body></html>",
    ].join("\n"),
  },
  broken: {
    subject: "Welcome to Example App, {{name}}",
    text: [
      "Hi {{name}},",
      "",
      "Your verification code is {{code}}.",
      "Or verify your address here: {{verifyUrl}}",
      "",
      "Sent {{sentAt}}",
    ].join("\n"),
    html: [
      "<!doctype html><html><head><style>",
      "body { font-family: sans-serif; margin: 24px; }",
      ".btn { display: inline-block; background: #1a73e8; color: #ffffff; padding: 12px 20px; text-decoration: none; }",
      "@media (prefers-color-scheme: dark) { body { background: #111111; color: #eeeeee; } .btn { background: #111111; color: #111111; } }",
      "</style></head><body>",
      "<h1>Welcome, {{name}}!</h1>",
      "<p>Your verification code is <b>{{code}}</b>.</p>",
      '<p><a class="btn" href="{{verifyUrl}}">Verify my address</a></p>',
      '<p style="color:#777777">Sent {{sentAt}}</p>',
      "</body></html>",
    ].join("\n"),
  },
};

/** A template engine as many apps have one: `{{var}}` filled from `vars`, an unknown one left as it is. */
const fill = (template: string, vars: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (all, k: string) => vars[k] ?? all);

/** Mails the welcome mail of `release` to `to`, as the app does at sign-up. */
export async function sendWelcomeMail(
  smtp: { host: string; port: number },
  to: string,
  firstName: string,
  release: Release = "good",
): Promise<void> {
  const vars = {
    firstName,
    code: String(randomInt(0, 1_000_000)).padStart(6, "0"),
    verifyUrl: `https://app.example/verify?token=${randomBytes(16).toString("hex")}`,
    sentAt: new Date().toISOString().replace("T", " ").slice(0, 16),
  };
  const t = TEMPLATES[release];
  const transport = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: "Example App <hello@app.example>",
      to,
      subject: fill(t.subject, vars),
      text: fill(t.text, vars),
      html: fill(t.html, vars),
    });
  } finally {
    transport.close();
  }
}
