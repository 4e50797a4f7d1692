import { Resolver } from "node:dns/promises";
import type { DnsLookup } from "../domain/domains/dns-check";

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
  return async (domainName, dkimSelector) => {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers.length > 0) resolver.setServers([...servers]);
    const [mx, txt, dkim] = await Promise.all([
      orEmpty(resolver.resolveMx(domainName)),
      orEmpty(resolver.resolveTxt(domainName)),
      dkimSelector ? orEmpty(resolver.resolveTxt(`${dkimSelector}._domainkey.${domainName}`)) : Promise.resolve([]),
    ]);
    // a TXT record longer than 255 bytes (a 2048-bit DKIM key) comes in several strings: one record
    return { mx: mx.map((r) => r.exchange), txt: txt.map((chunks) => chunks.join("")), dkim: dkim.map((chunks) => chunks.join("")) };
  };
}
