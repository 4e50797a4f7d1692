import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { simpleParser } from "mailparser";
import { parseDurationMs, type SpamResult } from "@burnbox/contracts";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";
import { pipeline, type Logger } from "@burnbox/service-kit/runtime";
import { SpanKind, withSpan } from "@burnbox/service-kit/telemetry";
import type { InboxDeps } from "../domain/deps";
import { authenticationOff, type MailAuthenticator } from "../domain/emails/authentication/mail-authenticator";
import { receiveEmail } from "../domain/emails/receive-email.use-case";
import { resolveRecipient, type Delivery } from "../domain/emails/resolve-recipient.use-case";
import { spamScoringOff, type SpamScorer } from "../domain/emails/spam/spam-scorer";
import { fallbackOnFailure } from "./fallback-on-failure";
import { IntakeLimits } from "./intake-limits";
import { SmtpBehaviours } from "./behaviour";
import { TranscriptRecorder } from "./transcript";
import { acceptProxyProtocol } from "./proxy-protocol";
import { reloadCertificateOnChange } from "./certificate-reload";

type SmtpError = Error & { responseCode?: number };
/** The text of the reply to a stored message (after `250 `). */
const ACCEPTED = "2.0.0 Message accepted";
/** Every reply but the accepted ones is counted here, by command and code. */
const smtpError = (code: number, message: string, command: "rcpt" | "data" = "rcpt"): SmtpError => {
  pipeline.smtpReplies.inc({ command, code: String(code) });
  return Object.assign(new Error(message), { responseCode: code });
};

/**
 * A message the parser's own limits refuse (mailsplit: more than 1,000 MIME parts, nested or
 * side by side, or a header block over 1 MiB): the same bytes would be refused on every retry,
 * so the answer is permanent (5xx), not 451.
 */
function refusalOf(err: unknown): SmtpError | null {
  if ((err as { code?: string } | null)?.code !== "EMAXLEN") return null;
  const message = err instanceof Error ? err.message : "";
  return /child nodes/i.test(message)
    ? smtpError(554, "5.6.0 Message refused: too many MIME parts", "data")
    : smtpError(552, "5.3.4 Message refused: header too large", "data");
}

interface SessionState {
  deliveries: Delivery[];
  /** Messages begun on this connection (MAIL FROM). */
  messages: number;
  /** Whether the connection counts against its IP's limit (it was not refused at connect). */
  counted: boolean;
  /** The session's lifetime (`smtp.session_timeout`), from connect. */
  lifetime?: NodeJS.Timeout;
  /** A message is in and being stored: a deadline that passes now waits for its reply. */
  storing: boolean;
  /** The reply a deadline that passed while storing sends once the message is answered. */
  expireAfterReply?: string;
  /** The body of a DATA is coming in (its own deadline, `smtp.data_timeout`, applies). */
  inData: boolean;
  /** The deadline of the command line begun and not yet ended (`smtp.command_timeout`). */
  commandDeadline?: NodeJS.Timeout;
  /** The socket whose bytes are watched for unfinished command lines (the TLS one after STARTTLS). */
  watched?: Socket;
}
const state = new WeakMap<SMTPServerSession, SessionState>();
const stateOf = (session: SMTPServerSession): SessionState => {
  let s = state.get(session);
  if (!s) state.set(session, (s = { deliveries: [], messages: 0, counted: false, storing: false, inData: false }));
  return s;
};

/** What smtp-server's connection offers for a reply outside a command's callback. */
interface Connection {
  session: SMTPServerSession;
  /** The connection's socket (the TLS one once STARTTLS is done). */
  _socket?: Socket;
  send(code: number, text: string): void;
  close(): void;
}

/** The certificate and key STARTTLS offers, when both are configured. */
function tlsOptions(cfg: InboxDeps["config"]["smtp"]): { key: Buffer; cert: Buffer } | null {
  if (!cfg.tls_cert || !cfg.tls_key) return null;
  return { key: readFileSync(cfg.tls_key), cert: readFileSync(cfg.tls_cert) };
}

/** What a spam scorer that failed anyway leaves on the email. */
const SPAM_UNAVAILABLE: SpamResult = { status: "unavailable" };

/**
 * The SMTP intake: accepts a recipient only when an active, unexpired inbox has that exact
 * address (550 otherwise: never an open relay), at most `max_recipients`, at most
 * `max_message_bytes` (SIZE advertised, 552 beyond), refuses for good what its parser's limits
 * refuse (554 too many MIME parts, 552 header too large), and answers 451 when it cannot store,
 * so the sender retries; 250 only once the bytes and the row are durable. STARTTLS when a
 * certificate is configured; per-IP connections (421) and messages per minute (451), messages per
 * connection (421); idle clients are disconnected, and so are a command line not finished within
 * `smtp.command_timeout` of its first byte, a DATA slower than `smtp.data_timeout` and a session
 * older than `smtp.session_timeout` (421). Behind a load balancer, the PROXY protocol from
 * `smtp.proxy_protocol.trusted_cidrs` gives every check the sender's own address; the STARTTLS
 * certificate is read again when its files change.
 */
export function createSmtpIntake(
  deps: InboxDeps,
  logger: Logger,
  authenticator: MailAuthenticator = authenticationOff,
  spamScorer: SpamScorer = spamScoringOff,
): SMTPServer {
  const cfg = deps.config.smtp;
  const tls = tlsOptions(cfg);
  const limits = new IntakeLimits({
    connectionsPerIp: cfg.max_connections_per_ip,
    messagesPerIpPerMinute: cfg.max_messages_per_ip_per_minute,
  });
  const commandMs = parseDurationMs(cfg.command_timeout);
  const dataMs = parseDurationMs(cfg.data_timeout);
  const sessionMs = parseDurationMs(cfg.session_timeout);
  const pruning = setInterval(() => limits.prune(), 60_000);
  pruning.unref();
  // every connection's lines, for the transcripts; and the inboxes' SMTP behaviours (extensions section 8)
  const recorder = new TranscriptRecorder(deps.now);
  const behaviours = new SmtpBehaviours(deps, logger, recorder);
  const server = new SMTPServer({
    name: cfg.hostname,
    banner: "BurnBox ESMTP",
    authOptional: true,
    disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(tls ?? {}),
    size: cfg.max_message_bytes,
    logger: recorder.logger,
    socketTimeout: parseDurationMs(cfg.idle_timeout),
    onConnect(session, cb) {
      const counted = limits.tryOpen(session.remoteAddress);
      const s = stateOf(session);
      s.counted = counted;
      if (!counted) return cb(smtpError(421, "4.7.0 Too many connections from your address, try again later"));
      s.lifetime = setTimeout(() => expire(session, "4.4.2 Session time limit reached, closing connection"), sessionMs);
      const socket = connectionOf(session)?._socket;
      if (socket) watchCommandLines(session, socket);
      cb();
    },
    onSecure(socket, session, cb) {
      // after STARTTLS the commands come on the TLS socket (the plain one lost its listeners)
      watchCommandLines(session, socket);
      cb();
    },
    onClose(session) {
      const s = state.get(session);
      clearTimeout(s?.lifetime);
      clearTimeout(s?.commandDeadline);
      if (s?.counted) limits.closed(session.remoteAddress);
    },
    onMailFrom(_address, session, cb) {
      const s = stateOf(session);
      s.deliveries = [];
      if (s.messages >= cfg.max_messages_per_connection) return cb(smtpError(421, "4.7.0 Too many messages on this connection"));
      if (!limits.trySend(session.remoteAddress)) return cb(smtpError(451, "4.7.1 Too many messages from your address, try again later"));
      s.messages += 1;
      cb();
    },
    onRcptTo(address: SMTPServerAddress, session, cb) {
      const s = stateOf(session);
      if (s.deliveries.length >= cfg.max_recipients) return cb(smtpError(452, "4.5.3 Too many recipients"));
      resolveRecipient(deps, { address: address.address })
        .then(async (delivery) => {
          if (!delivery) return cb(smtpError(550, "5.1.1 Mailbox unavailable"));
          // this RCPT TO and its reply show in this inbox's transcripts only
          recorder.claimRcpt(session, delivery.inboxId);
          const refused = await behaviours.atRcpt(session, delivery);
          if (refused) return cb(smtpError(refused.code, refused.text));
          if (!s.deliveries.some((d) => d.inboxId === delivery.inboxId)) s.deliveries.push(delivery);
          pipeline.smtpReplies.inc({ command: "rcpt", code: "250" });
          cb();
        })
        .catch((err: unknown) => {
          logger.error({ err }, "recipient lookup failed");
          cb(smtpError(451, "4.3.0 Temporary failure, try again later"));
        });
    },
    onData(stream, session, cb) {
      const s = stateOf(session);
      // the body's bytes are not command lines
      s.inData = true;
      clearTimeout(s.commandDeadline);
      s.commandDeadline = undefined;
      // the idle timer restarts with every byte; this one does not (a sender trickling a byte at a time)
      const deadline = setTimeout(() => expire(session, "4.4.2 Message not received in time, closing connection"), dataMs);
      const answer: typeof cb = (err, message) => {
        s.storing = false;
        cb(err, message);
        const expired = s.expireAfterReply;
        if (expired) setImmediate(() => expire(session, expired));
      };
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("close", () => {
        clearTimeout(deadline);
        s.inData = false;
      });
      stream.on("end", () => {
        clearTimeout(deadline);
        s.inData = false;
        s.storing = true;
        const deliveries = state.get(session)?.deliveries ?? [];
        // an inbox's delay_ms holds the final reply, whatever it is, from the end of the body
        const held = behaviours.hold(deliveries);
        const reply: typeof cb = held ? (err, message) => void held.done.then(() => answer(err, message)) : answer;
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          reply(smtpError(552, "5.3.4 Message too big", "data"));
          return;
        }
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        // the trace of a message starts here: its email.received events carry it on
        withSpan("smtp DATA", { kind: SpanKind.SERVER, attributes: { "smtp.message.size": raw.length } }, async () => {
          // an inbox's max_size_bytes or defer_first may refuse it before anything is parsed or stored
          const refused = await behaviours.atDataEnd(session, deliveries, raw, held?.until);
          if (refused) return refused;
          // SPF, DKIM, DMARC, ARC (extensions section 3): their lookups run while the message is parsed;
          // never a rejection, and no longer than the DNS budget
          const origin = { ip: session.remoteAddress, helo: session.hostNameAppearsAs || null, sender: from };
          const checked = fallbackOnFailure(authenticator.check(raw, origin), null, (err) =>
            logger.error({ err }, "authentication checks failed; the email is stored without them"),
          );
          // the spam score (extensions section 9) too: asked once, never longer than spam.timeout, never a refusal
          const scored = fallbackOnFailure(
            spamScorer.score(raw, { ...origin, recipients: deliveries.map((d) => d.recipient) }),
            SPAM_UNAVAILABLE,
            (err) => logger.error({ err }, "spam scoring failed; the email is stored as unavailable"),
          );
          // no text made from the HTML here: an HTML-only mail's text is its visible text (receiveEmail)
          const mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipHtmlToText: true });
          // each inbox's own transcript (its own RCPT TO only)
          const transcriptOf = (d: Delivery) => behaviours.transcript(session, d, `250 ${ACCEPTED}`, held?.until);
          return receiveEmail(deps, logger, {
            raw,
            mail,
            envelopeFrom: from,
            deliveries,
            transcriptOf,
            authentication: await checked,
            spam: await scored,
          });
        })
          .then((ids) => {
            if (!Array.isArray(ids)) {
              logger.info({ size: raw.length, code: ids.code }, "message refused by an inbox's SMTP behaviour");
              reply(smtpError(ids.code, ids.text, "data"));
              return;
            }
            logger.info({ emails: ids.length, size: raw.length }, "message accepted");
            pipeline.smtpReplies.inc({ command: "data", code: "250" });
            reply(null, ACCEPTED);
          })
          .catch((err: unknown) => {
            const refused = refusalOf(err);
            if (refused) {
              logger.info({ size: raw.length, reason: refused.message }, "message refused");
              reply(refused);
              return;
            }
            logger.error({ err }, "could not store message; asking the sender to retry");
            reply(smtpError(451, "4.3.0 Temporary failure, try again later", "data"));
          });
      });
      stream.on("error", (err) => {
        logger.warn({ err }, "SMTP data stream failed");
      });
    },
  });
  /** The connection of a session (smtp-server keeps them in a set). */
  function connectionOf(session: SMTPServerSession): Connection | undefined {
    const connections = (server as unknown as { connections: Set<Connection> }).connections;
    for (const c of connections) if (c.session === session) return c;
    return undefined;
  }

  /**
   * Gives each command line a deadline (`smtp.command_timeout`) from its first byte: the idle
   * timer restarts with every byte, so a client dripping a byte at a time would otherwise hold
   * the connection until the session's deadline. Outside DATA, a chunk that leaves a line
   * unfinished arms it (unless armed already); a chunk that ends a line clears it, and arms a new
   * one when a further line begins after it. One scan of each chunk for its last line feed.
   */
  function watchCommandLines(session: SMTPServerSession, socket: Socket): void {
    const s = stateOf(session);
    if (s.watched === socket) return;
    s.watched = socket;
    const arm = () => {
      s.commandDeadline = setTimeout(() => {
        s.commandDeadline = undefined;
        expire(session, "4.4.2 Command line not completed in time, closing connection");
      }, commandMs);
    };
    socket.on("data", (chunk: Buffer) => {
      if (s.inData) return;
      const lf = chunk.lastIndexOf(10);
      if (lf < 0) {
        if (!s.commandDeadline) arm();
        return;
      }
      clearTimeout(s.commandDeadline);
      s.commandDeadline = undefined;
      if (lf < chunk.length - 1) arm();
    });
  }

  /**
   * Ends a session whose deadline passed: 421 and close (RFC 5321 4.5.3.2 lets the server close
   * with 421 at any point). While its message is being stored it waits for that message's reply.
   */
  function expire(session: SMTPServerSession, reply: string): void {
    const s = stateOf(session);
    if (s.storing) {
      s.expireAfterReply = reply;
      return;
    }
    const connection = connectionOf(session);
    if (!connection) return;
    pipeline.smtpReplies.inc({ command: "session", code: "421" });
    logger.info({ remote: session.remoteAddress, reason: reply }, "SMTP session cut at its deadline");
    connection.send(421, reply);
    connection.close();
  }
  // behind a load balancer: the client's address from its PROXY header, from the trusted peers only
  acceptProxyProtocol(
    server,
    {
      trustedCidrs: cfg.proxy_protocol.trusted_cidrs,
      untrusted: cfg.proxy_protocol.untrusted,
      headerTimeoutMs: parseDurationMs(cfg.idle_timeout),
    },
    logger,
  );
  // a renewed certificate (cert-manager, a replaced file) is taken up by the next STARTTLS, without a restart
  if (tls && cfg.tls_cert && cfg.tls_key) {
    const reload = reloadCertificateOnChange(server, { cert: cfg.tls_cert, key: cfg.tls_key }, tls, logger);
    server.server.on("close", () => reload.close());
  }
  server.on("error", (err) => logger.warn({ err }, "SMTP server error"));
  server.server.on("close", () => clearInterval(pruning));
  return server;
}
