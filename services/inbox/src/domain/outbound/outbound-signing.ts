import { RpcName } from "@burnbox/contracts";
import type { SecretBox } from "@burnbox/service-kit/security";
import type { ClaimedOutbound } from "../../data/outbound.repository";
import type { InboxDeps } from "../deps";
import { askTenancy } from "../tenancy";
import type { MailSigner } from "./mail-sender";

/**
 * The outbound worker's `sign` (extensions 10): each message is DKIM-signed with the key of its
 * sender's domain, asked of tenancy at the attempt (`tenancy.dkim_key`, the key sealed; opened here
 * with `encryption.key`, held only for the signature). A domain without a key (none made yet, or no
 * `encryption.key`) sends unsigned; tenancy not answering fails the attempt before anything is sent
 * (the claim lapses and is taken again), so a message never goes out unsigned only because tenancy
 * was away.
 */
export function outboundSigning(deps: InboxDeps, signer: MailSigner, secrets: SecretBox | null) {
  return async (raw: Buffer, m: ClaimedOutbound): Promise<Buffer> => {
    const domain = m.mailFrom.slice(m.mailFrom.lastIndexOf("@") + 1).toLowerCase();
    const { key } = await askTenancy(deps, RpcName.dkimKey, { domain_name: domain });
    if (!key || !secrets?.enabled) return raw;
    return signer.sign(raw, { domain, selector: key.selector, privateKey: secrets.open(key.private_key_sealed) });
  };
}
