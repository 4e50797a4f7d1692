import { LRUCache } from "lru-cache";
import { RpcName } from "@burnbox/contracts";
import type { SecretBox } from "@burnbox/service-kit/security";
import type { ClaimedOutbound } from "../../data/outbound.repository";
import type { InboxDeps } from "../deps";
import { askTenancy } from "../tenancy";
import type { MailSigner } from "./mail-sender";

/** How long a domain's DKIM key read from tenancy signs before it is asked for again. */
export const DKIM_KEY_TTL_MS = 60_000;
/** The most domains whose keys one worker keeps. */
const DKIM_KEYS_KEPT = 1000;

type DkimKey = NonNullable<Awaited<ReturnType<typeof askTenancy<typeof RpcName.dkimKey>>>["key"]>;

/**
 * The outbound worker's `sign` (extensions 10): each message is DKIM-signed with the key of its
 * sender's domain, asked of tenancy at the attempt (`tenancy.dkim_key`, the key sealed; opened here
 * with `encryption.key`, held only for the signature). A domain without a key (none made yet, or no
 * `encryption.key`) sends unsigned; tenancy not answering fails the attempt before anything is sent
 * (the claim lapses and is taken again), so a message never goes out unsigned only because tenancy
 * was away. A domain's key, once found, is kept (sealed) for `DKIM_KEY_TTL_MS`: tenancy makes a
 * domain's key once and announces no rotation, so the TTL bounds how long a replaced key would
 * still sign; a domain without one is asked again at each attempt (its key may be made meanwhile).
 */
export function outboundSigning(deps: InboxDeps, signer: MailSigner, secrets: SecretBox | null) {
  // a domain's key for DKIM_KEY_TTL_MS on the service's clock, the least recently used dropped past the bound
  const keys = new LRUCache<string, DkimKey>({ max: DKIM_KEYS_KEPT, ttl: DKIM_KEY_TTL_MS, perf: { now: () => deps.now() } });
  const keyOf = async (domain: string): Promise<DkimKey | null> => {
    const known = keys.get(domain);
    if (known) return known;
    const { key } = await askTenancy(deps, RpcName.dkimKey, { domain_name: domain });
    if (key) keys.set(domain, key);
    return key ?? null;
  };
  return async (raw: Buffer, m: ClaimedOutbound): Promise<Buffer> => {
    const domain = m.mailFrom.slice(m.mailFrom.lastIndexOf("@") + 1).toLowerCase();
    const key = await keyOf(domain);
    if (!key || !secrets?.enabled) return raw;
    return signer.sign(raw, { domain, selector: key.selector, privateKey: secrets.open(key.private_key_sealed) });
  };
}
