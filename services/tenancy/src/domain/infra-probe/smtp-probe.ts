import net from "node:net";
import tls from "node:tls";
import type { PinnedTarget } from "./target";

/** What an SMTP conversation needs: the pinned target, the port and how to authenticate. */
export interface SmtpConversation {
  target: PinnedTarget;
  port: number;
  /** true: implicit TLS on 465, STARTTLS (required) on any other port; false: plain text. */
  tls: boolean;
  username?: string | undefined;
  password?: string | undefined;
  timeoutMs: number;
}

/** A failure with the message the caller may see: generic, never the server's words. */
export class ProbeFailure extends Error {}

interface Reply {
  code: number;
  lines: string[];
}

/** Reads SMTP replies (multi-line `250-...` until `250 ...`) from a socket that may be upgraded to TLS. */
class ReplyReader {
  private buffer = "";
  private waiting: ((r: Reply) => void) | null = null;
  private failed: ((e: Error) => void) | null = null;
  private queue: Reply[] = [];
  private pending: string[] = [];
  private error: Error | null = null;

  attach(socket: net.Socket): void {
    // decoded here rather than with setEncoding, which would also touch the socket TLS takes over
    socket.on("data", (chunk: Buffer) => this.push(chunk.toString("latin1")));
    socket.on("error", (e) => this.fail(e));
    socket.on("close", () => this.fail(new ProbeFailure("connection closed by server")));
  }

  private push(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > 64 * 1024) return this.fail(new ProbeFailure("unexpected server reply"));
    let nl: number;
    while ((nl = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, "");
      this.buffer = this.buffer.slice(nl + 1);
      const m = /^(\d{3})([ -])(.*)$/.exec(line);
      if (!m) return this.fail(new ProbeFailure("not an SMTP server"));
      this.pending.push(m[3]!);
      if (m[2] === " ") {
        this.queue.push({ code: Number(m[1]), lines: this.pending });
        this.pending = [];
      }
    }
    this.flush();
  }

  private fail(e: Error): void {
    if (!this.error) this.error = e;
    this.flush();
  }

  private flush(): void {
    if (this.waiting && this.queue.length > 0) {
      const w = this.waiting;
      this.waiting = this.failed = null;
      w(this.queue.shift()!);
    } else if (this.failed && this.error) {
      const f = this.failed;
      this.waiting = this.failed = null;
      f(this.error);
    }
  }

  next(): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
      this.flush();
    });
  }

  /** Bytes received before a TLS upgrade are dropped (a STARTTLS injection defence). */
  reset(): void {
    this.buffer = "";
    this.queue = [];
    this.pending = [];
    this.error = null;
  }
}

const connectPlain = (t: PinnedTarget, port: number): net.Socket => net.connect({ host: t.address, port, family: t.family });

const tlsOptions = (t: PinnedTarget) => (net.isIP(t.host) ? {} : { servername: t.host });

function connected(socket: net.Socket, event: "connect" | "secureConnect"): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once(event, () => resolve());
    socket.once("error", reject);
  });
}

/**
 * A short SMTP conversation with the pinned address: greeting, EHLO, STARTTLS when asked, AUTH
 * when a user name is given, QUIT. No mail is sent. TLS certificates are verified against the host
 * name the caller gave (SNI), not the address. Every failure becomes a `ProbeFailure` with a
 * generic message.
 */
export async function smtpConversation(c: SmtpConversation): Promise<string> {
  const implicit = c.tls && c.port === 465;
  let socket: net.Socket = implicit
    ? tls.connect({ host: c.target.address, port: c.port, ...tlsOptions(c.target) })
    : connectPlain(c.target, c.port);
  const reader = new ReplyReader();
  const timer = setTimeout(() => socket.destroy(new ProbeFailure("timed out")), c.timeoutMs);
  try {
    try {
      await connected(socket, implicit ? "secureConnect" : "connect");
    } catch (err) {
      throw err instanceof ProbeFailure ? err : new ProbeFailure(implicit ? "TLS connection failed" : "connection failed");
    }
    reader.attach(socket);
    const expect = async (codes: number[], failure: string): Promise<Reply> => {
      const r = await reader.next();
      if (!codes.includes(r.code)) throw new ProbeFailure(failure);
      return r;
    };
    const send = (line: string) => socket.write(`${line}\r\n`);
    await expect([220], "server refused the connection");
    send("EHLO burnbox.probe");
    let ehlo = await expect([250], "server refused EHLO");
    if (c.tls && !implicit) {
      if (!ehlo.lines.slice(1).some((l) => /^STARTTLS\b/i.test(l))) throw new ProbeFailure("server does not offer STARTTLS");
      send("STARTTLS");
      await expect([220], "server refused STARTTLS");
      socket.removeAllListeners("data");
      reader.reset();
      const plain = socket;
      socket = tls.connect({ socket: plain, ...tlsOptions(c.target) });
      try {
        await connected(socket, "secureConnect");
      } catch {
        throw new ProbeFailure("TLS negotiation failed");
      }
      reader.attach(socket);
      send("EHLO burnbox.probe");
      ehlo = await expect([250], "server refused EHLO");
    }
    if (c.username) {
      // the first line is the server's own name (it may well start with "auth."), the extensions follow
      const extensions = ehlo.lines.slice(1);
      const auth = extensions.find((l) => /^AUTH\b/i.test(l))?.toUpperCase() ?? "";
      if (!auth) throw new ProbeFailure("server does not offer authentication");
      if (/\bPLAIN\b/.test(auth)) {
        send(`AUTH PLAIN ${Buffer.from(`\0${c.username}\0${c.password ?? ""}`).toString("base64")}`);
      } else if (/\bLOGIN\b/.test(auth)) {
        send("AUTH LOGIN");
        await expect([334], "authentication failed");
        send(Buffer.from(c.username).toString("base64"));
        await expect([334], "authentication failed");
        send(Buffer.from(c.password ?? "").toString("base64"));
      } else throw new ProbeFailure("server offers no supported authentication method");
      await expect([235], "authentication failed");
    }
    send("QUIT");
    return c.username ? "SMTP connection and authentication successful" : "SMTP connection successful";
  } catch (err) {
    throw err instanceof ProbeFailure ? err : new ProbeFailure("connection failed");
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
