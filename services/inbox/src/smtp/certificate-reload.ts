import { watch, type FSWatcher } from "node:fs";
import { readFile } from "node:fs/promises";
import { X509Certificate } from "node:crypto";
import path from "node:path";
import { createSecureContext } from "node:tls";
import type { SMTPServer } from "smtp-server";
import type { Logger } from "@burnbox/service-kit/runtime";

/** How long the files must stay quiet after a change before they are read (a renewal writes both, one after the other). */
export const RELOAD_DEBOUNCE_MS = 250;
/** The files are read again this often whatever the watches say (a file system whose changes they miss). */
export const RELOAD_RECHECK_MS = 60_000;

export interface CertificateFiles {
  cert: string;
  key: string;
}

/** What a certificate is known by in the log: its fingerprint and its end of validity. */
function describe(cert: Buffer): { fingerprint256: string; valid_to: string; subject: string } {
  const x509 = new X509Certificate(cert);
  return { fingerprint256: x509.fingerprint256, valid_to: x509.validTo, subject: x509.subject };
}

/**
 * Keeps STARTTLS on the certificate in `files` as they change (cert-manager renewing its Secret,
 * an operator replacing the files), without a restart: the directories that hold them are
 * watched (a Kubernetes Secret volume swaps a `..data` symlink beside the files rather than
 * writing them, so a watch on the files themselves would see the first change only), every
 * change is let settle for `RELOAD_DEBOUNCE_MS`, and the files are read again every
 * `RELOAD_RECHECK_MS` besides. A new pair is put in place once it makes a working TLS context
 * (the key matching the certificate): the next STARTTLS gets it, sessions already encrypted keep
 * theirs. A pair half written, or unreadable, leaves the one in use and is logged; the next
 * change or check tries again.
 */
export function reloadCertificateOnChange(
  server: Pick<SMTPServer, "updateSecureContext">,
  files: CertificateFiles,
  current: { cert: Buffer; key: Buffer },
  logger: Logger,
): { close(): void } {
  let inUse = current;
  let timer: NodeJS.Timeout | undefined;
  let reading: Promise<void> | null = null;
  let again = false;
  let closed = false;

  async function check(): Promise<void> {
    const [cert, key] = await Promise.all([readFile(files.cert), readFile(files.key)]);
    if (cert.equals(inUse.cert) && key.equals(inUse.key)) return;
    // throws on a key that is not the certificate's, or on anything that is not PEM
    createSecureContext({ cert, key });
    server.updateSecureContext({ cert, key });
    const before = inUse;
    inUse = { cert, key };
    logger.info({ certificate: describe(cert), previous: describe(before.cert).fingerprint256 }, "SMTP STARTTLS certificate reloaded");
  }

  /** One read at a time; a change during a read reads again after it. */
  function run(): void {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = check()
      .catch((err: unknown) => {
        logger.warn({ err, cert: files.cert, key: files.key }, "SMTP STARTTLS certificate not reloaded; the one in use stays");
      })
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          run();
        }
      });
  }

  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(run, RELOAD_DEBOUNCE_MS);
    timer.unref();
  };
  const watchers: FSWatcher[] = [];
  for (const dir of new Set([path.dirname(path.resolve(files.cert)), path.dirname(path.resolve(files.key))])) {
    try {
      const watcher = watch(dir, { persistent: false }, changed);
      watcher.on("error", (err) => logger.warn({ err, dir }, "SMTP certificate directory no longer watched; read again every minute"));
      watchers.push(watcher);
    } catch (err) {
      logger.warn({ err, dir }, "SMTP certificate directory cannot be watched; read again every minute");
    }
  }
  const recheck = setInterval(run, RELOAD_RECHECK_MS);
  recheck.unref();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(recheck);
      for (const w of watchers) w.close();
    },
  };
}
