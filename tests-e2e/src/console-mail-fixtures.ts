// Mail the console's inbox and reader tests send through the SMTP intake, and the 'remote' host
// their hostile mail points at.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { SmtpSession } from "./clients";

const CRLF = "\r\n";

/** A 1×1 PNG and a one-page PDF, small and valid, for the attachment previews. */
export const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
export function tinyPdf(): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    null, // the content stream, below
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const content = "BT /F1 18 Tf 20 50 Td (BurnBox PDF) Tj ET";
  objects[3] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const b64 = (buf: Buffer) => buf.toString("base64").replace(/.{76}/g, `$&${CRLF}`);

export interface Part {
  contentType: string;
  body: string | Buffer;
  filename?: string;
}

/** A MIME message: a text part, an HTML part (multipart/alternative) and attachments (multipart/mixed). */
export function mimeMessage(o: {
  from: string;
  to: string;
  subject: string;
  text?: string;
  html?: string;
  attachments?: Part[];
  headers?: string[];
}): string {
  const alt = `alt-${randomBytes(6).toString("hex")}`;
  const mixed = `mix-${randomBytes(6).toString("hex")}`;
  const bodyParts: string[] = [];
  if (o.text !== undefined)
    bodyParts.push(
      `--${alt}${CRLF}Content-Type: text/plain; charset=utf-8${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}${b64(Buffer.from(o.text))}`,
    );
  if (o.html !== undefined)
    bodyParts.push(
      `--${alt}${CRLF}Content-Type: text/html; charset=utf-8${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}${b64(Buffer.from(o.html))}`,
    );
  const alternative = `Content-Type: multipart/alternative; boundary="${alt}"${CRLF}${CRLF}${bodyParts.join(CRLF)}${CRLF}--${alt}--`;
  const attachments = o.attachments ?? [];
  const body =
    attachments.length === 0
      ? alternative
      : [
          `Content-Type: multipart/mixed; boundary="${mixed}"`,
          "",
          `--${mixed}`,
          alternative,
          ...attachments.map(
            (a) =>
              `--${mixed}${CRLF}Content-Type: ${a.contentType}; name="${a.filename}"${CRLF}Content-Disposition: attachment; filename="${a.filename}"${CRLF}Content-Transfer-Encoding: base64${CRLF}${CRLF}${b64(Buffer.isBuffer(a.body) ? a.body : Buffer.from(a.body))}`,
          ),
          `--${mixed}--`,
        ].join(CRLF);
  return [
    `From: ${o.from}`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Message-ID: <${randomBytes(8).toString("hex")}@console.e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    ...(o.headers ?? []),
    body,
  ].join(CRLF);
}

/** Sends a message over SMTP; resolves on the 250 to the DATA, rejects on any other reply. */
export async function sendRaw(port: number, from: string, to: string, message: string): Promise<void> {
  const s = await SmtpSession.open(port);
  try {
    const mail = await s.command(`MAIL FROM:<${from}>`);
    if (mail.code !== 250) throw new Error(`MAIL FROM: ${mail.code} ${mail.text}`);
    const rcpt = await s.command(`RCPT TO:<${to}>`);
    if (rcpt.code !== 250) throw new Error(`RCPT TO: ${rcpt.code} ${rcpt.text}`);
    const data = await s.data(message);
    if (data.code !== 250) throw new Error(`DATA: ${data.code} ${data.text}`);
  } finally {
    await s.quit();
  }
}

/** An HTML body that tries everything a mail should never get away with, all aimed at `remote`. */
export function hostileHtml(remote: string): string {
  return [
    "<html><head>",
    `<meta http-equiv="refresh" content="0;url=${remote}/refresh">`,
    `<link rel="stylesheet" href="${remote}/style.css">`,
    "<script>alert('head script')</script>",
    "</head>",
    `<body onload="alert('onload')">`,
    '<p id="greeting">Hello from a hostile sender</p>',
    `<script>alert('body script'); fetch('${remote}/script')</script>`,
    `<img id="tracker" src="${remote}/pixel.png" alt="tracking pixel" width="1" height="1">`,
    `<form id="phish" action="${remote}/form" method="post"><input name="password" value="hunter2"><button id="phish-submit" type="submit">Sign in</button></form>`,
    `<a id="js-link" href="javascript:alert('link')">Claim your prize</a>`,
    `<img src="x" onerror="alert('onerror')" alt="broken">`,
    `<div style="background-image:url(${remote}/bg.png)">styled</div>`,
    `<iframe src="${remote}/frame"></iframe>`,
    "</body></html>",
  ].join("\n");
}

/** The SMTP intake's test-only certificate (CN localhost, 127.0.0.1): the 'remote' host serves https with it. */
const FIXTURES = path.resolve(__dirname, "..", "..", "services", "inbox", "test", "fixtures");

/**
 * A local HTTPS server standing for a remote image host (the console's CSP lets remote images be
 * https only; the browser context ignores the test certificate): it records every request and
 * answers a 1×1 PNG.
 */
export async function startRemoteHost(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const tls = { cert: readFileSync(path.join(FIXTURES, "smtp-test.crt")), key: readFileSync(path.join(FIXTURES, "smtp-test.key")) };
  const server: Server = createServer(tls, (req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "image/png", "access-control-allow-origin": "*" });
    res.end(PNG_1X1);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
