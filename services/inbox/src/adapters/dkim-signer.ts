import { dkimSign } from "mailauth/lib/dkim/sign";
import type { MailSigner } from "../domain/outbound/mail-sender";

/**
 * Mail out's DKIM signer (extensions 10) on mailauth, the library the intake verifies signatures
 * with: rsa-sha256, relaxed/relaxed, its default header list. The DKIM-Signature goes on top of
 * the message, the bytes below it unchanged. A signature mailauth refuses to make (a bad key) is
 * an error, so a message never leaves unsigned by accident.
 */
export const dkimSigner: MailSigner = {
  async sign(raw, key) {
    const signature = { signingDomain: key.domain, selector: key.selector, privateKey: key.privateKey };
    // mailauth signs what `signatureData` lists; its typings also ask for the fields at the top level
    const result = await dkimSign(raw, {
      ...signature,
      canonicalization: "relaxed/relaxed",
      algorithm: "rsa-sha256",
      signatureData: [signature],
    });
    const failure = result.errors?.[0];
    if (failure || !result.signatures) throw new Error(`DKIM signing failed for ${key.domain}: ${failure?.err.code ?? "no signature"}`);
    return Buffer.concat([Buffer.from(result.signatures, "utf8"), raw]);
  },
};
