import { readFileSync } from "node:fs";
import net from "node:net";
import tls from "node:tls";
import { parseDurationMs } from "@burnbox/contracts";
import { pipeline, type Logger } from "@burnbox/service-kit/runtime";
import type { InboxConfig } from "../config";
import { reloadCertificateOnChange } from "../smtp/certificate-reload";
import type { MailboxBackend } from "./backend";
import { ImapSession, type ImapTransport } from "./imap-session";
import { Pop3Session } from "./pop3-session";

/** How long a client has to close its side after the shutdown's BYE before its connection is cut. */
const BYE_GRACE_MS = 2_000;

interface Served {
  bye(text?: string): void;
  end(): void;
  push(chunk: Buffer): void;
  greet(): void;
}

export interface MailboxServers {
  imapPort: number;
  pop3Port: number;
  /** Says `* BYE` (IMAP, IDLE sessions included) or `-ERR` (POP3) to every session and closes the listeners. */
  close(): Promise<void>;
}

/** The IMAP and POP3 listeners of extensions section 11, STARTTLS/STLS when a certificate is configured. */
export async function startMailboxServers(
  config: InboxConfig,
  backends: { imap: MailboxBackend; pop3: MailboxBackend },
  logger: Logger,
): Promise<MailboxServers> {
  const certFile = config.mailbox.tls_cert ?? (config.mailbox.tls_key ? undefined : config.smtp.tls_cert);
  const keyFile = config.mailbox.tls_key ?? (config.mailbox.tls_cert ? undefined : config.smtp.tls_key);
  let secureContext: tls.SecureContext | null = null;
  let reload: { close(): void } | null = null;
  if (certFile && keyFile) {
    const current = { cert: readFileSync(certFile), key: readFileSync(keyFile) };
    secureContext = tls.createSecureContext(current);
    reload = reloadCertificateOnChange(
      { updateSecureContext: (options) => void (secureContext = tls.createSecureContext(options as tls.SecureContextOptions)) },
      { cert: certFile, key: keyFile },
      current,
      logger,
    );
  }
  const sessions = new Set<Served>();
  const sockets = new Set<net.Socket>();
  const perIp = new Map<string, number>();

  function serve(protocol: "imap" | "pop3", idleMs: number) {
    return net.createServer((socket) => {
      const ip = socket.remoteAddress?.replace(/^::ffff:/, "") ?? "unknown";
      const held = (perIp.get(ip) ?? 0) + 1;
      if (held > config.mailbox.max_connections_per_ip) {
        socket.end(
          protocol === "imap"
            ? "* BYE too many connections from your address\r\n"
            : "-ERR [IN-USE] too many connections from your address\r\n",
        );
        return;
      }
      perIp.set(ip, held);
      sockets.add(socket);
      // a command's answer is several writes (the untagged lines, then the tagged one): without
      // this, Nagle's algorithm holds the last until the client's delayed ACK, 40 ms a command
      socket.setNoDelay(true);
      let current: net.Socket | tls.TLSSocket = socket;
      let encrypted = false;
      const onData = (chunk: Buffer) => session.push(chunk);
      const io: ImapTransport = {
        write: (data) => {
          if (!current.destroyed) current.write(data);
        },
        close: () => current.end(),
        get encrypted() {
          return encrypted;
        },
        remoteAddress: ip,
        startTls: secureContext
          ? () =>
              new Promise<void>((resolve) => {
                current.off("data", onData);
                const secure = new tls.TLSSocket(socket, { isServer: true, secureContext: secureContext as tls.SecureContext });
                secure.once("secure", () => {
                  encrypted = true;
                  resolve();
                });
                secure.on("error", () => secure.destroy());
                secure.on("data", onData);
                secure.setTimeout(idleMs, () => secure.destroy());
                current = secure;
              })
          : undefined,
      };
      const opts = { hostname: config.smtp.hostname, tlsOffered: secureContext !== null };
      const session: Served = protocol === "imap" ? new ImapSession(backends.imap, io, opts) : new Pop3Session(backends.pop3, io, opts);
      sessions.add(session);
      pipeline.mailboxSessions.inc({ protocol });
      socket.setTimeout(idleMs, () => {
        if (protocol === "imap") session.bye("autologout: idle too long");
        socket.destroy();
      });
      socket.on("data", onData);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => {
        sockets.delete(socket);
        session.end();
        sessions.delete(session);
        pipeline.mailboxSessions.dec({ protocol });
        const n = (perIp.get(ip) ?? 1) - 1;
        if (n <= 0) perIp.delete(ip);
        else perIp.set(ip, n);
      });
      session.greet();
    });
  }

  const listen = (server: net.Server, port: number, host: string) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port));
    });
  const imap = serve("imap", parseDurationMs(config.imap.idle_timeout));
  const pop3 = serve("pop3", parseDurationMs(config.pop3.idle_timeout));
  const imapPort = await listen(imap, config.imap.port, config.imap.host);
  const pop3Port = await listen(pop3, config.pop3.port, config.pop3.host);
  logger.info({ imapPort, pop3Port, starttls: secureContext !== null }, "IMAP and POP3 listening");
  return {
    imapPort,
    pop3Port,
    close: async () => {
      reload?.close();
      const closed = Promise.all([imap, pop3].map((s) => new Promise<void>((r) => s.close(() => r()))));
      // every session, IDLE ones included, is told before its connection ends (RFC 3501 7.1.5)
      for (const s of sessions) s.bye();
      // a client that does not close its side after the BYE is cut off
      const cut = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, BYE_GRACE_MS);
      await closed;
      clearTimeout(cut);
    },
  };
}
