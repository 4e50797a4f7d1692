/**
 * The CPU cost of code and link extraction per message (extensions section 2), two ways in one run.
 *
 * 1. In process, on a typical 8 KiB HTML verification mail (table layout, inline styles,
 *    preheader, ten links, a footer) with its text part, and on the same mail without a text part
 *    (the HTML is then read for codes too). Beside it, what intake already spends on the same
 *    HTML: sanitize-html. CPU µs per message (user + system, process.cpuUsage) after a warm-up.
 * 2. At intake (BENCH_INTAKE=0 skips it): the whole system, the same mail (text + HTML, as sent
 *    over SMTP) into one inbox, and the SMTP intake process's CPU ms per message (from /proc) with
 *    extraction on and off (`bench.unsafe_skip_extraction`, a bench-only switch of the intake),
 *    in alternating rounds on one system (on, off, on, off), each after the intake restarts with
 *    the switch and a warm-up. The difference is what extraction costs the intake per message.
 * Run: pnpm --filter @burnbox/bench extraction   (BENCH_MESSAGES, default 20000, in process;
 * BENCH_INTAKE_MESSAGES, default 3000 per round, at intake)
 */
import { extract } from "../../services/inbox/src/domain/emails/extraction/extract";
import { sanitizeEmailHtml } from "../../services/inbox/src/domain/emails/mail-content";
import { apiClient, createInbox, SmtpSession, System, teamWithDomain } from "@burnbox/tests-e2e";
import { cpuMs, machine } from "./stats";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const INTAKE_MESSAGES = Number(process.env.BENCH_INTAKE_MESSAGES ?? 3000);
const INTAKE_CONNECTIONS = 4;

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

function inProcess(): void {
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
  hostileBodies();
}

/**
 * Hostile text bodies of 300,000 characters (what the unit tests bound by the characters handed to
 * the regular expressions, extract.spec.ts): CPU ms per extraction, after one warm-up each. This
 * speed figure used to be a timed unit test (under 1.5 s), which failed on a loaded machine.
 */
function hostileBodies(): void {
  const bodies: Array<[string, string]> = [
    ["a keyword and the same code, repeated", "code 1234 "],
    ["one chunk without spaces", "code:1234,"],
    ["two-digit groups", "12 "],
    ["URLs holding codes", "https://a.test/code/123456 "],
  ];
  process.stdout.write("hostile bodies, 300,000 characters each:\n");
  for (const [what, unit] of bodies) {
    const text = unit.repeat(Math.ceil(300_000 / unit.length));
    const run = () => extract({ subject: "Acme", text, html: null, headers: {} });
    run();
    const rounds = 5;
    const before = process.cpuUsage();
    for (let i = 0; i < rounds; i++) run();
    const used = process.cpuUsage(before);
    process.stdout.write(
      `  ${what.padEnd(42)} ${((used.user + used.system) / 1000 / rounds).toFixed(1).padStart(8)} CPU ms per extraction\n`,
    );
  }
}

/** The typical mail as a sender puts it on the wire: multipart/alternative, both parts base64 in 76-character lines. */
function wireMessage(to: string, i: number): string {
  const b64 = (text: string) =>
    (
      Buffer.from(text, "utf8")
        .toString("base64")
        .match(/.{1,76}/g) ?? []
    ).join("\r\n");
  const boundary = `b${i}x${Date.now()}`;
  return [
    "From: Acme <noreply@acme.test>",
    `To: ${to}`,
    `Subject: Verify your Acme email (${i})`,
    `Message-ID: <bench-${i}-${boundary}@acme.test>`,
    `Date: ${new Date().toUTCString()}`,
    `List-Unsubscribe: ${HEADERS["list-unsubscribe"]}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    b64(TEXT),
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    b64(HTML),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

async function sendAll(port: number, to: string, count: number): Promise<void> {
  const sessions = await Promise.all(Array.from({ length: INTAKE_CONNECTIONS }, () => SmtpSession.open(port)));
  let next = 0;
  await Promise.all(
    sessions.map(async (s) => {
      while (next < count) {
        const i = next++;
        await s.command("MAIL FROM:<noreply@acme.test>");
        await s.command(`RCPT TO:<${to}>`);
        const reply = await s.data(wireMessage(to, i));
        if (reply.code !== 250) throw new Error(`message ${i}: ${reply.code} ${reply.text}`);
      }
      await s.quit();
    }),
  );
}

async function atIntake(): Promise<void> {
  process.stdout.write(`\nat intake: ${INTAKE_MESSAGES} messages a round over ${INTAKE_CONNECTIONS} connections, rounds on/off/on/off\n`);
  const limits = { BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "100000000", BB_SMTP_MAX_MESSAGES_PER_CONNECTION: "100000000" };
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
    "inbox-smtp": limits,
  });
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "bench");
    // the stored mail really differs: one message of each round is read back
    const lastExtracted = async () => {
      const page = await api<{ data: Array<{ extracted: { codes: Array<{ value: string }>; links: unknown[] } }> }>(
        "GET",
        `/inboxes/${inbox.id}/emails?per_page=1`,
        { token: world.owner.token },
      );
      const e = page.body.data[0]?.extracted;
      return e ? `codes ${JSON.stringify(e.codes.map((c) => c.value))}, links ${e.links.length}` : "none";
    };
    const perMessage: Record<"on" | "off", number[]> = { on: [], off: [] };
    for (const mode of ["on", "off", "on", "off"] as const) {
      system.setProcessEnv("inbox-smtp", { ...limits, BB_BENCH_UNSAFE_SKIP_EXTRACTION: mode === "off" ? "true" : "false" });
      await system.stopProcess("inbox-smtp");
      await system.startProcess("inbox-smtp");
      await sendAll(system.ports.smtp, inbox.full_address, Math.min(500, INTAKE_MESSAGES)); // warm-up: JIT, pools, caches
      const pid = system.pid("inbox-smtp");
      const before = cpuMs(pid);
      const started = performance.now();
      await sendAll(system.ports.smtp, inbox.full_address, INTAKE_MESSAGES);
      const ms = (cpuMs(pid) - before) / INTAKE_MESSAGES;
      perMessage[mode].push(ms);
      const rate = INTAKE_MESSAGES / ((performance.now() - started) / 1000);
      process.stdout.write(
        `extraction ${mode.padEnd(3)}  intake ${ms.toFixed(3)} CPU ms per message  ${rate.toFixed(0).padStart(5)} msg/s  stored: ${await lastExtracted()}\n`,
      );
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const on = mean(perMessage.on);
    const off = mean(perMessage.off);
    process.stdout.write(
      `intake CPU ms per message: extraction off ${off.toFixed(3)} (baseline), on ${on.toFixed(3)}; extraction costs ${(on - off).toFixed(3)} ms (${(((on - off) / off) * 100).toFixed(1)}%)\n`,
    );
  } finally {
    await system.stop();
  }
}

async function main(): Promise<void> {
  inProcess();
  if (process.env.BENCH_INTAKE !== "0") await atIntake();
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
