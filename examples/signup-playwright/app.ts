// A tiny sign-up app to test: GET / is a form asking for an email address; POST /signup mails a
// six-digit code to it (through an SMTP server, with nodemailer) and shows a form for the code;
// POST /verify answers "verified" when the code is right.
import { randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import nodemailer from "nodemailer";

export interface SignupApp {
  url: string;
  close(): Promise<void>;
}

const page = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Sign up</title></head><body><main>${body}</main></body></html>`;
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) body += (chunk as Buffer).toString("utf8");
  return new URLSearchParams(body);
}

export async function startSignupApp(smtp: { host: string; port: number }): Promise<SignupApp> {
  // the local intake offers STARTTLS with a test certificate; a real relay would keep TLS on
  const mailer = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true });
  const pending = new Map<string, string>(); // email -> code

  const server: Server = createServer((req, res) => {
    const html = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      res.end(page(body));
    };
    void (async () => {
      if (req.method === "GET" && req.url === "/") {
        return html(
          200,
          `<h1>Sign up</h1><form method="post" action="/signup"><label>Email <input name="email" type="email" required></label>` +
            `<button type="submit">Sign up</button></form>`,
        );
      }
      if (req.method === "POST" && req.url === "/signup") {
        const email = (await form(req)).get("email") ?? "";
        const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
        pending.set(email, code);
        await mailer.sendMail({
          from: "Example App <signup@app.example>",
          to: email,
          subject: "Your verification code",
          text: `Welcome! Your verification code is ${code}. It expires in 10 minutes.`,
        });
        return html(
          200,
          `<p>We sent a code to ${escape(email)}.</p><form method="post" action="/verify">` +
            `<input type="hidden" name="email" value="${escape(email)}"><label>Code <input name="code" inputmode="numeric" required></label>` +
            `<button type="submit">Verify</button></form>`,
        );
      }
      if (req.method === "POST" && req.url === "/verify") {
        const f = await form(req);
        const ok = pending.get(f.get("email") ?? "") === f.get("code");
        return html(ok ? 200 : 400, ok ? `<p role="status">verified</p>` : `<p role="alert">wrong code</p>`);
      }
      html(404, "<p>not found</p>");
    })().catch((err: unknown) => html(500, `<p role="alert">${escape(String(err))}</p>`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        mailer.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
