import { createHash, randomBytes, randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";

export const sha256 = (value: string): string => createHash("sha256").update(value).digest("hex");

/** An opaque secret for refresh, pending-login, reset and verification tokens; only its hash is stored. */
export const opaqueToken = (): string => randomBytes(32).toString("base64url");

export interface AccessSubject {
  userId: string;
  email: string;
  isSystemAdmin: boolean;
  sessionId: string;
}

/** The access JWT of contract-notes: HS256 with sub, email, is_system_admin, sid, jti, iat, exp. */
export function signAccessToken(subject: AccessSubject, secret: string, ttlSeconds: number, nowMs = Date.now()): string {
  const iat = Math.floor(nowMs / 1000);
  return jwt.sign(
    {
      sub: subject.userId,
      email: subject.email,
      is_system_admin: subject.isSystemAdmin,
      sid: subject.sessionId,
      jti: randomUUID(),
      iat,
      exp: iat + ttlSeconds,
    },
    secret,
    { algorithm: "HS256" },
  );
}
