import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import WebSocket from "ws";

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A REST client as a user of the public API would write one. */
export function apiClient(baseUrl: string) {
  return async function api<T = Record<string, unknown>>(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text.length > 0 ? JSON.parse(text) : null;
    } catch {
      // not JSON: leave the text
    }
    return { status: res.status, body: body as T, headers: res.headers };
  };
}

export interface SmtpReply {
  code: number;
  text: string;
}

/** A minimal SMTP client on node:net, so tests see every reply code (RCPT 550 included). */
export class SmtpSession {
  private buffer = "";
  private waiters: Array<{ resolve(r: SmtpReply): void; reject(err: Error): void }> = [];
  /** Why the connection ended, once it has: every reply still awaited, and every later command, fails with it. */
  private ended: Error | null = null;
  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (;;) {
        const m = /(^|\r\n)(\d{3}) ([^\r\n]*)\r\n/.exec(this.buffer);
        if (!m) break;
        this.buffer = this.buffer.slice((m.index ?? 0) + m[0].length);
        const waiter = this.waiters.shift();
        waiter?.resolve({ code: Number(m[2]), text: m[3] ?? "" });
      }
    });
    // a server that dies mid-session (a fault benchmark's kill) fails the session at once, as a
    // real client sees it, instead of leaving its reply awaited forever
    socket.on("error", (err) => this.end(err));
    socket.on("close", () => this.end(new Error("connection closed by the server")));
  }

  private end(err: Error): void {
    this.ended ??= err;
    for (const w of this.waiters.splice(0)) w.reject(this.ended);
  }

  static async open(port: number, host = "127.0.0.1"): Promise<SmtpSession> {
    const socket = net.connect(port, host);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    const s = new SmtpSession(socket);
    const greeting = await s.next();
    if (greeting.code !== 220) throw new Error(`unexpected greeting ${greeting.code} ${greeting.text}`);
    await s.command("EHLO e2e.test");
    return s;
  }

  private next(): Promise<SmtpReply> {
    const ended = this.ended;
    if (ended) return Promise.reject(ended);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  command(line: string): Promise<SmtpReply> {
    const p = this.next();
    this.socket.write(`${line}\r\n`);
    return p;
  }

  async data(message: string): Promise<SmtpReply> {
    const start = await this.command("DATA");
    if (start.code !== 354) return start;
    const body = message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
    const p = this.next();
    this.socket.write(`${body}\r\n.\r\n`);
    return p;
  }

  async quit(): Promise<void> {
    await this.command("QUIT").catch(() => undefined);
    this.socket.end();
  }
}

/** What a test's message holds: a text (or, with `html`, an HTML) body, and an optional attached file. */
export interface MessageOptions {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** The body is HTML (`text/html`) rather than plain text. */
  html?: boolean;
  /** One attached text file: the message becomes multipart/mixed. */
  file?: { name: string; content: string };
}

/** A message as a sender writes it (CRLF line ends, a fresh Message-ID, today's date). */
export function buildMessage(opts: MessageOptions): string {
  const bodyType = `Content-Type: text/${opts.html ? "html" : "plain"}; charset=utf-8`;
  const head = [
    `From: ${opts.from}`,
    `To: ${opts.to}`,
    `Subject: ${opts.subject}`,
    `Message-ID: <${randomBytes(8).toString("hex")}@e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
  ];
  if (!opts.file) return [...head, bodyType, "", opts.text].join("\r\n");
  const b = `b-${randomBytes(6).toString("hex")}`;
  return [
    ...head,
    `Content-Type: multipart/mixed; boundary="${b}"`,
    "",
    `--${b}`,
    bodyType,
    "",
    opts.text,
    `--${b}`,
    `Content-Type: text/plain; name="${opts.file.name}"`,
    `Content-Disposition: attachment; filename="${opts.file.name}"`,
    "",
    opts.file.content,
    `--${b}--`,
    "",
  ].join("\r\n");
}

/** Delivers `raw` from `from` to `to` over SMTP, expecting 250 at each step. */
export async function deliverOk(port: number, from: string, to: string, raw: string): Promise<void> {
  const s = await SmtpSession.open(port);
  try {
    expect((await s.command(`MAIL FROM:<${from}>`)).code).toBe(250);
    expect((await s.command(`RCPT TO:<${to}>`)).code).toBe(250);
    expect((await s.data(raw)).code).toBe(250);
  } finally {
    await s.quit();
  }
}

/** Sends one message; returns each step's reply code. */
export async function sendMail(port: number, opts: MessageOptions) {
  const s = await SmtpSession.open(port);
  try {
    const mail = await s.command(`MAIL FROM:<${opts.from}>`);
    const rcpt = await s.command(`RCPT TO:<${opts.to}>`);
    const data = rcpt.code === 250 ? await s.data(buildMessage(opts)) : null;
    return { mail, rcpt, data };
  } finally {
    await s.quit();
  }
}

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  at: number;
}

/** A local HTTP receiver for webhook deliveries; `respond` picks each answer's status. */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  respond: (n: number) => number = () => 200;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const holder: { self?: WebhookReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const r = holder.self as WebhookReceiver;
        r.received.push({ headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() });
        res.statusCode = r.respond(r.received.length);
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    holder.self = new WebhookReceiver(server);
    return holder.self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** Opens a WebSocket and collects its JSON frames. */
export async function openSocket(url: string): Promise<{ ws: WebSocket; frames: Array<{ type: string; data: Record<string, unknown> }> }> {
  const ws = new WebSocket(url);
  const frames: Array<{ type: string; data: Record<string, unknown> }> = [];
  ws.on("message", (raw: Buffer) => frames.push(JSON.parse(raw.toString("utf8")) as { type: string; data: Record<string, unknown> }));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once("error", reject);
  });
  return { ws, frames };
}
