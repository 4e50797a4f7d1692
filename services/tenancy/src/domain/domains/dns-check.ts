import type { Domain } from "@burnbox/contracts";
import { dkimPublished } from "./dkim-key";

/** What the DNS said about a domain: its MX hosts and TXT strings (empty when it has none or does not exist). */
export interface DnsRecords {
  mx: string[];
  txt: string[];
  /** The TXT strings at `<dkimSelector>._domainkey.<domain>` (empty when no selector was asked for). */
  dkim: string[];
}

/**
 * Looks a domain's records up (with its DKIM key's name when it has a selector); rejects with the
 * DNS error (SERVFAIL, timeout, refused) when a lookup fails.
 */
export type DnsLookup = (domainName: string, dkimSelector: string | null) => Promise<DnsRecords>;

const hostName = (h: string): string => h.trim().toLowerCase().replace(/\.$/, "");

/**
 * The checks of the contract notes: an MX record equal to `mxTarget` (case-insensitive, trailing
 * dot ignored), a TXT record equal to the verification record, and SPF (`v=spf1` naming the
 * host name), which is informational, as is DKIM (extensions 10: the domain's key published at its
 * name; null when the domain has no key). Status: both -> verified, one -> partially_verified, none -> failed.
 */
export function verdict(records: DnsRecords, expected: { mxTarget: string; verificationRecord: string; dkimPublicKey?: string | null }) {
  const target = hostName(expected.mxTarget);
  const mx = records.mx.some((h) => hostName(h) === target);
  const txt = records.txt.some((t) => t.trim() === expected.verificationRecord);
  const spf = records.txt.some((t) => /^v=spf1\b/i.test(t.trim()) && t.toLowerCase().includes(target));
  const dkim = expected.dkimPublicKey ? dkimPublished(records.dkim, expected.dkimPublicKey) : null;
  const status: Domain["status"] = mx && txt ? "verified" : mx || txt ? "partially_verified" : "failed";
  return { flags: { mx, txt, spf, dkim }, status };
}
