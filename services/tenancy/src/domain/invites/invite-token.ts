import { createHash, randomBytes } from "node:crypto";

/** A new invite token: 64 hex characters (32 random bytes), and the SHA-256 that is all we store. */
export function newInviteToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("hex");
  return { token, hash: hashInviteToken(token) };
}

/** The stored form of a token: lowercase hex SHA-256 of the token as sent. */
export const hashInviteToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

/** Whether a string can be one of our tokens at all (anything else is simply unknown). */
export const isInviteToken = (token: string): boolean => /^[0-9a-f]{64}$/.test(token);
