import { Resolver } from "node:dns/promises";
import type { Domain } from "@burnbox/contracts";

/** What the DNS said about a domain: its MX hosts and TXT strings (empty when it has none or does not exist). */
export interface DnsRecords {
  mx: string[];
  txt: string[];
}

/** Looks a domain's records up; rejects with the DNS error (SERVFAIL, timeout, refused) when the lookup fails. */
export type DnsLookup = (domainName: string) => Promise<DnsRecords>;

/** "No such name" and "no such record" are answers (checked, nothing found), not failures. */
const isNoAnswer = (err: unknown): boolean => {
  const code = (err as { code?: string }).code;
  return code === "ENOTFOUND" || code === "ENODATA";
};

const orEmpty = async <T>(lookup: Promise<T[]>): Promise<T[]> => {
  try {
    return await lookup;
  } catch (err) {
    if (isNoAnswer(err)) return [];
    throw err;
  }
};

/** A lookup through `servers` (`host:port`; the system's resolvers when empty). */
export function dnsLookup(servers: readonly string[], timeoutMs: number): DnsLookup {
  return async (domainName) => {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers.length > 0) resolver.setServers([...servers]);
    const [mx, txt] = await Promise.all([orEmpty(resolver.resolveMx(domainName)), orEmpty(resolver.resolveTxt(domainName))]);
    return { mx: mx.map((r) => r.exchange), txt: txt.map((chunks) => chunks.join("")) };
  };
}

const hostName = (h: string): string => h.trim().toLowerCase().replace(/\.$/, "");

/**
 * The checks of the contract notes: an MX record equal to `mxTarget` (case-insensitive, trailing
 * dot ignored), a TXT record equal to the verification record, and SPF (`v=spf1` naming the
 * host name), which is informational. Status: both -> verified, one -> partially_verified, none -> failed.
 */
export function verdict(records: DnsRecords, expected: { mxTarget: string; verificationRecord: string }) {
  const target = hostName(expected.mxTarget);
  const mx = records.mx.some((h) => hostName(h) === target);
  const txt = records.txt.some((t) => t.trim() === expected.verificationRecord);
  const spf = records.txt.some((t) => /^v=spf1\b/i.test(t.trim()) && t.toLowerCase().includes(target));
  const status: Domain["status"] = mx && txt ? "verified" : mx || txt ? "partially_verified" : "failed";
  return { flags: { mx, txt, spf }, status };
}
