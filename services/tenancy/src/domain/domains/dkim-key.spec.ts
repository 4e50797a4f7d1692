import { createPrivateKey, createPublicKey } from "node:crypto";
import { SecretBox } from "@burnbox/service-kit/security";
import { dkimPublished, dkimRecord, newDkimKey } from "./dkim-key";
import { verdict } from "./dns-check";

const KEY = "ab".repeat(32);

describe("DKIM keys (extensions 10)", () => {
  it("when a key is made, then it is 2048-bit RSA, the public half in the record, the private half sealed and matching it", async () => {
    const key = await newDkimKey(new SecretBox(KEY));
    expect(key?.selector).toBe("burnbox");
    const pub = createPublicKey({ key: Buffer.from(key!.publicKey, "base64"), format: "der", type: "spki" });
    expect(pub.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(key!.privateSealed).not.toContain("PRIVATE KEY");
    const priv = createPrivateKey(new SecretBox(KEY).open(key!.privateSealed));
    expect(createPublicKey(priv).export({ type: "spki", format: "der" }).toString("base64")).toBe(key!.publicKey);
    expect(dkimRecord("mail.example.com", key!.selector, key!.publicKey)).toEqual({
      selector: "burnbox",
      name: "burnbox._domainkey.mail.example.com",
      type: "TXT",
      value: `v=DKIM1; k=rsa; p=${key!.publicKey}`,
    });
  });

  it("when no encryption.key is configured, then no key is made (a private key is never stored in clear)", async () => {
    expect(await newDkimKey(new SecretBox(""))).toBeNull();
  });

  it("when the DNS is read, then only a record publishing this very key counts (tags in any order, white space in p= ignored)", () => {
    expect(dkimPublished(["v=DKIM1; k=rsa; p=ABCD"], "ABCD")).toBe(true);
    expect(dkimPublished(["p=AB CD; k=rsa; v=DKIM1"], "ABCD")).toBe(true);
    expect(dkimPublished(["p=ABCD"], "ABCD")).toBe(true);
    expect(dkimPublished(["v=DKIM1; k=rsa; p=OTHER"], "ABCD")).toBe(false);
    expect(dkimPublished(["v=DKIM2; p=ABCD"], "ABCD")).toBe(false);
    expect(dkimPublished(["v=DKIM1; k=ed25519; p=ABCD"], "ABCD")).toBe(false);
    expect(dkimPublished([], "ABCD")).toBe(false);
  });

  it("when a domain is checked, then DKIM is informational: it never changes the status", () => {
    const expected = { mxTarget: "mx.burnbox.test", verificationRecord: "burnbox-verify=abc", dkimPublicKey: "ABCD" };
    expect(verdict({ mx: ["mx.burnbox.test"], txt: ["burnbox-verify=abc"], dkim: [] }, expected)).toEqual({
      flags: { mx: true, txt: true, spf: false, dkim: false },
      status: "verified",
    });
    expect(verdict({ mx: [], txt: [], dkim: ["v=DKIM1; k=rsa; p=ABCD"] }, expected)).toEqual({
      flags: { mx: false, txt: false, spf: false, dkim: true },
      status: "failed",
    });
  });
});
