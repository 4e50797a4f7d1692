import { authenticate } from "mailauth";
import type { Authentication } from "@burnbox/contracts";
import { pipeline, type Clock, type Logger } from "@burnbox/service-kit/runtime";
import {
  fromDomainIn,
  signaturesIn,
  spfDomainOf,
  temperrorVerdicts,
  verdictsOf,
  type CheckOutcome,
} from "../domain/emails/authentication/verdicts";
import { authenticationOff, type MailAuthenticator, type SmtpOrigin } from "../domain/emails/authentication/mail-authenticator";
import { DnsLookupError, DnsRecords, RECORD_TYPES, type RecordType } from "./dns-records";

/** Lookups stop this long before the budget ends, so that the checks' own work still fits in it. */
const WRAP_UP_MS = 150;

const isRecordType = (type: string): type is RecordType => (RECORD_TYPES as readonly string[]).includes(type);

/** `::ffff:192.0.2.1` (an IPv4 client on a dual-stack socket) is `192.0.2.1`. */
const clientAddress = (ip: string): string => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

export interface MailAuthenticationSettings {
  enabled: boolean;
  /** `authentication.dns_budget` in ms: the longest a message waits for its checks past DATA. */
  budgetMs: number;
  maxLookups: number;
  cacheEntries: number;
  /** `dns.servers`, `dns.timeout_ms`. */
  dns: { servers: readonly string[]; timeout_ms: number };
  /** The name the intake greets with (the `authserv-id`). */
  mta: string;
}

/**
 * Counts one message's verdicts (`burnbox_mail_auth_verdicts_total`): SPF, DMARC and ARC once
 * each, DKIM once per signature, or once as `none` for an unsigned message.
 */
export function countVerdicts(verdicts: Authentication): void {
  pipeline.mailAuthVerdicts.inc({ check: "spf", result: verdicts.spf.result });
  if (verdicts.dkim.length === 0) pipeline.mailAuthVerdicts.inc({ check: "dkim", result: "none" });
  for (const signature of verdicts.dkim) pipeline.mailAuthVerdicts.inc({ check: "dkim", result: signature.result });
  pipeline.mailAuthVerdicts.inc({ check: "dmarc", result: verdicts.dmarc.result });
  pipeline.mailAuthVerdicts.inc({ check: "arc", result: verdicts.arc.result });
}

/**
 * The intake's authentication checks on mailauth (SPF, DKIM, DMARC, ARC; BIMI is not asked), its
 * lookups through `DnsRecords` (`dns.servers`, a TTL cache, each message's budget). A check still
 * running when the budget ends is dropped and the message's verdicts are all `temperror`, so a
 * slow DNS never delays a 250 by more than the budget; a check that throws is `temperror` too.
 */
export function mailAuthentication(settings: MailAuthenticationSettings, logger: Logger, now: Clock = Date.now): MailAuthenticator {
  if (!settings.enabled) return authenticationOff;
  const records = new DnsRecords({
    servers: settings.dns.servers,
    timeoutMs: settings.dns.timeout_ms,
    maxEntries: settings.cacheEntries,
    now,
  });
  return {
    check: async (raw: Buffer, origin: SmtpOrigin): Promise<Authentication> => {
      const started = now();
      const budget = { deadline: started + Math.max(0, settings.budgetMs - WRAP_UP_MS), lookupsLeft: settings.maxLookups };
      const ip = clientAddress(origin.ip);
      const fromDomain = () => fromDomainIn(raw);
      const unfinished = () =>
        temperrorVerdicts({ signatures: signaturesIn(raw), fromDomain: fromDomain(), spfDomain: spfDomainOf(origin.sender, origin.helo) });
      // node:dns's `resolve` shapes (TXT: lists of strings, MX: exchange and priority), which mailauth's type narrows to strings
      const resolver = (name: string, type: string) =>
        (isRecordType(type)
          ? records.lookup(name, type, budget)
          : Promise.reject(new DnsLookupError("ENOTIMP", `${type} is not asked`))) as Promise<string[][] | string[]>;
      const checks = authenticate(raw, {
        ip,
        ...(origin.helo ? { helo: origin.helo } : {}),
        ...(origin.sender ? { sender: origin.sender } : {}),
        mta: settings.mta,
        resolver,
        disableBimi: true,
        trustReceived: false,
        // the verdicts are read from the results; the Authentication-Results text is not used
        // (a BurnBox patch of mailauth, patches/mailauth@7.1.0.patch)
        skipHeaders: true,
      }).then((outcome) => verdictsOf(outcome as unknown as CheckOutcome, fromDomain));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), settings.budgetMs - (now() - started));
      });
      const done = (verdicts: Authentication, outcome: "checked" | "late" | "failed"): Authentication => {
        pipeline.mailAuthDuration.observe({ outcome }, (now() - started) / 1000);
        countVerdicts(verdicts);
        return verdicts;
      };
      try {
        const verdicts = await Promise.race([checks, late]);
        if (verdicts !== "late") return done(verdicts, "checked");
        logger.info({ ip, budget_ms: settings.budgetMs }, "authentication checks ran out of time; verdicts are temperror");
        checks.catch(() => undefined);
        return done(unfinished(), "late");
      } catch (err) {
        logger.warn({ err, ip }, "authentication checks failed; verdicts are temperror");
        return done(unfinished(), "failed");
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
