import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { errors } from "../core/errors";

const VERSION = "v1";

/**
 * AES-256-GCM with a fresh 96-bit nonce per secret, for secrets a service must read back (SSO
 * client secrets, the tokens behind a one-time code, the platform mailer password and storage
 * secret key). Every service holding `encryption.key` (the same key) opens what another sealed. Stored as `v1.<nonce>.<tag>.<ciphertext>`
 * (base64url). Without a key nothing is stored: a 400, never a secret in clear.
 */
export class SecretBox {
  private readonly key: Buffer | null;

  constructor(hexKey: string) {
    this.key = hexKey ? Buffer.from(hexKey, "hex") : null;
  }

  get enabled(): boolean {
    return this.key !== null;
  }

  seal(plain: string): string {
    if (!this.key) throw errors.validation("encryption.key is not configured: secrets cannot be stored");
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [VERSION, nonce, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
  }

  /** The plain secret; throws when the key is missing or wrong or the value was tampered with. */
  open(sealed: string): string {
    if (!this.key) throw new Error("encryption.key is not configured");
    const [version, nonce, tag, data] = sealed.split(".");
    if (version !== VERSION || !nonce || !tag || data === undefined) throw new Error("unreadable sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(nonce, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  }
}
