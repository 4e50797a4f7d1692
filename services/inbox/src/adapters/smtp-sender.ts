import net from "node:net";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import type { MailSender, SmtpAnswer, SmtpSession, SmtpTarget } from "../domain/outbound/mail-sender";

type SmtpError = Error & { responseCode?: number; response?: string };

const answerOf = (err: unknown): SmtpAnswer => {
  const e = err as SmtpError;
  return { code: typeof e.responseCode === "number" ? e.responseCode : null, reply: (e.response ?? e.message ?? String(err)).trim() };
};

/**
 * Mail out's SMTP client (nodemailer's SMTPConnection, one connection per attempt): `open` connects,
 * greets and logs in, so that the caller can record that the transaction begins before `send`
 * says MAIL FROM (see domain/outbound/deliver-outbound.use-case.ts).
 */
export const smtpSender: MailSender = {
  open(target: SmtpTarget, timeoutMs: number): Promise<SmtpSession | SmtpAnswer> {
    const conn = new SMTPConnection({
      host: target.address,
      port: target.port,
      secure: target.secure,
      requireTLS: target.requireTls,
      ignoreTLS: target.ignoreTls,
      ...(net.isIP(target.host) ? {} : { servername: target.host }),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    let failed: SmtpAnswer | null = null;
    conn.on("error", (err) => {
      failed = answerOf(err);
    });
    const session: SmtpSession = {
      send: (envelope, raw) =>
        new Promise((resolve) => {
          conn.send(envelope, raw, (err, info) => {
            if (err) return resolve(answerOf(err));
            const reply = String(info.response ?? "250 OK").trim();
            const rejected = info.rejected ?? [];
            const code = Number.parseInt(reply.slice(0, 3), 10);
            resolve({
              code: Number.isFinite(code) ? code : 250,
              reply: rejected.length > 0 ? `${reply} (refused: ${rejected.join(", ")})` : reply,
            });
          });
        }),
      close: () => {
        try {
          conn.quit();
        } catch {
          conn.close();
        }
      },
    };
    return new Promise((resolve) => {
      conn.connect((err) => {
        if (err) {
          conn.close();
          return resolve(answerOf(err));
        }
        if (failed) return resolve(failed);
        if (!target.user) return resolve(session);
        conn.login({ user: target.user, pass: target.password }, (loginErr) => {
          if (loginErr) {
            conn.close();
            return resolve(answerOf(loginErr));
          }
          resolve(session);
        });
      });
    });
  },
};
