import type { Domain } from "@burnbox/contracts";

/** What the DNS said about a domain: its MX hosts and TXT strings (empty when it has none or does not exist). */
export interface DnsRecords {
  mx: string[];
  txt: string[];
}

/** Looks a domain's records up; rejects with the DNS error (SERVFAIL, timeout, refused) when the lookup fails. */
export type DnsLookup = (domainName: string) => Promise<DnsRecords>;

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
