import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { DkimRecord } from "@burnbox/contracts";
import type { SecretBox } from "@burnbox/service-kit/security";

/** Extensions 10: the selector of every domain's DKIM key (`burnbox._domainkey.<domain>`). */
export const DKIM_SELECTOR = "burnbox";

/** A domain's DKIM key as stored: the public half in clear (base64 SPKI DER), the private half only sealed. */
export interface DkimKey {
  selector: string;
  publicKey: string;
  privateSealed: string;
}

const rsaKeyPair = promisify(generateKeyPair);

/**
 * A new 2048-bit RSA key (RFC 8301's minimum is 1024; 2048 is what receivers expect), its private
 * half sealed with `encryption.key` (PKCS#8 PEM inside). Null when no key is configured: nothing
 * secret is ever stored in clear, and the domain's mail then goes out unsigned.
 */
export async function newDkimKey(secrets: SecretBox): Promise<DkimKey | null> {
  if (!secrets.enabled) return null;
  const { publicKey, privateKey } = await rsaKeyPair("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { selector: DKIM_SELECTOR, publicKey: publicKey.toString("base64"), privateSealed: secrets.seal(privateKey) };
}

/** The TXT record that publishes a domain's key (RFC 6376 3.6.1). */
export function dkimRecord(domainName: string, selector: string, publicKey: string): DkimRecord {
  return { selector, name: `${selector}._domainkey.${domainName}`, type: "TXT", value: `v=DKIM1; k=rsa; p=${publicKey}` };
}

/**
 * Whether one of the TXT strings found at the key's name publishes `publicKey`: its `p=` tag (white
 * space inside ignored, RFC 6376 3.6.1), with `v=DKIM1` when a `v=` tag is there and `k=rsa` when a `k=` is.
 */
export function dkimPublished(txt: readonly string[], publicKey: string): boolean {
  return txt.some((record) => {
    const tags = new Map(
      record
        .split(";")
        .map((part) => part.split("="))
        .filter((kv) => kv.length >= 2)
        .map(([k, ...v]) => [(k ?? "").trim().toLowerCase(), v.join("=").replace(/\s+/g, "")] as const),
    );
    if (tags.has("v") && tags.get("v") !== "DKIM1") return false;
    if (tags.has("k") && tags.get("k")?.toLowerCase() !== "rsa") return false;
    return tags.get("p") === publicKey;
  });
}
