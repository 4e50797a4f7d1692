/**
 * The CPU cost of code and link extraction per message (extensions section 2), in process, on
 * a typical 8 KiB HTML verification mail (table layout, inline styles, preheader, ten links, a
 * footer) with its text part, and on the same mail without a text part (the HTML is then read
 * for codes too). Beside it, in the same run, what intake already spends on the same HTML:
 * sanitize-html. Prints CPU µs per message (user + system, process.cpuUsage) after a warm-up.
 * Run: pnpm --filter @burnbox/bench extraction   (BENCH_MESSAGES, default 20000)
 */
import { extract } from "../../services/inbox/src/domain/emails/extraction/extract";
import { sanitizeEmailHtml } from "../../services/inbox/src/domain/emails/mail-content";
import { machine } from "./stats";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);

function typicalHtml(): string {
  const link = (path: string, text: string) =>
    `<a href="https://click.mail.acme.test/ls/click?upn=u001.${path}" style="color:#1a73e8;text-decoration:none">${text}</a>`;
  const head = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Verify your email</title><style>
body{margin:0;padding:0;background:#f4f4f7;font-family:Helvetica,Arial,sans-serif}.wrap{width:100%;max-width:600px;margin:0 auto}
.btn{display:inline-block;padding:12px 24px;border-radius:4px;background:#1a73e8;color:#fff}.code{font-size:32px;letter-spacing:8px}
@media only screen and (max-width:600px){.wrap{width:100%!important}}</style></head>`;
  const preheader = `<div style="display:none;max-height:0;overflow:hidden">Your Acme verification code is 482913${"&#847;&zwnj;&nbsp;".repeat(20)}</div>`;
  const row = (inner: string) => `<tr><td style="padding:16px 32px;font-size:16px;line-height:24px;color:#333333">${inner}</td></tr>`;
  const body = [
    row(`<img src="https://cdn.acme.test/logo.png" width="120" alt="Acme">`),
    row(`<h1 style="font-size:24px;margin:0">Confirm your email address</h1>`),
    row(`Hi Alice, thanks for signing up for Acme. Enter this verification code in the app to finish creating your account:`),
    row(`<div class="code" style="font-family:monospace;font-weight:bold">482913</div>`),
    row(`This code expires in 10 minutes. Or confirm with one click: ${link("AbC1", `<span class="btn">Confirm my email</span>`)}`),
    row(
      `If you did not create an account, you can ignore this email. Questions? ${link("Hlp2", "Visit our help center")} or reply to this message.`,
    ),
    row(
      `${link("Blg3", "Blog")} · ${link("Twt4", "Twitter")} · ${link("Gh5", "GitHub")} · ${link("Dc6", "Docs")} · ${link("St7", "Status")}`,
    ),
    row(
      `Acme Inc., 123 Market Street, Suite 400, San Francisco, CA 94105. © 2026 Acme Inc. All rights reserved. ${link("Prf8", "Preferences")} · ${link("Uns9", "Unsubscribe")}`,
    ),
  ].join("\n");
  let html = `${head}<body>${preheader}<table role="presentation" class="wrap" cellpadding="0" cellspacing="0" border="0">${body}</table>`;
  // pad with more of the same rows (real mails repeat layout tables) up to 8 KiB
  const filler = row(`Tip: you can change how often we write to you at any time in your account settings. ${link("Tip0", "Learn more")}`);
  while (html.length + filler.length < 8 * 1024 - 20) html += `<table role="presentation" class="wrap">${filler}</table>`;
  return `${html}</body></html>`;
}

const HTML = typicalHtml();
const TEXT = `Confirm your email address\n\nHi Alice, thanks for signing up for Acme. Enter this verification code in the app to finish creating your account:\n\n482913\n\nThis code expires in 10 minutes. Or confirm with one click: https://acme.test/verify?t=AbC1\n\nHelp: https://acme.test/help\n\n© 2026 Acme Inc.\n`;
const HEADERS = { "list-unsubscribe": "<mailto:unsub@acme.test>, <https://acme.test/u/Uns9>" };

function cpuMicrosPerMessage(label: string, work: () => unknown): number {
  for (let i = 0; i < Math.min(2000, MESSAGES); i++) work(); // warm-up: JIT and the libraries' caches
  const before = process.cpuUsage();
  for (let i = 0; i < MESSAGES; i++) work();
  const used = process.cpuUsage(before);
  const perMessage = (used.user + used.system) / MESSAGES;
  process.stdout.write(`${label.padEnd(44)} ${perMessage.toFixed(1).padStart(8)} µs CPU per message\n`);
  return perMessage;
}

process.stdout.write(`${machine()}; ${MESSAGES} messages; HTML ${HTML.length} chars, text ${TEXT.length} chars\n`);
const sample = extract({ subject: "Verify your Acme email", text: TEXT, html: HTML, headers: HEADERS });
process.stdout.write(`codes ${JSON.stringify(sample.codes.map((c) => c.value))}, links ${sample.links.length}\n`);
const sanitize = cpuMicrosPerMessage("baseline: sanitize-html of the same HTML", () => sanitizeEmailHtml(HTML));
const both = cpuMicrosPerMessage("extract: HTML + text part", () =>
  extract({ subject: "Verify your Acme email", text: TEXT, html: HTML, headers: HEADERS }),
);
const htmlOnly = cpuMicrosPerMessage("extract: HTML only (codes from its text)", () =>
  extract({ subject: "Verify your Acme email", text: null, html: HTML, headers: HEADERS }),
);
process.stdout.write(
  `extraction / sanitize-html: ${(both / sanitize).toFixed(2)} (with text part), ${(htmlOnly / sanitize).toFixed(2)} (HTML only)\n`,
);
