import { createHmac, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { InternalContext, type Actor } from "@burnbox/contracts";
import { enrichContext } from "../core/context";
import { errors } from "../core/errors";

/** Header carrying the gateway's signed statement of who the caller is. */
export const INTERNAL_CONTEXT_HEADER = "x-bb-internal-context";
const LIFETIME_SECONDS = 30;

const b64 = (s: string | Buffer) => Buffer.from(s).toString("base64url");
const mac = (payload: string, secret: string) => createHmac("sha256", secret).update(payload).digest();

export function signInternalContext(ctx: Omit<InternalContext, "exp">, secret: string, now = Date.now()): string {
  const payload = b64(JSON.stringify({ ...ctx, exp: Math.floor(now / 1000) + LIFETIME_SECONDS }));
  return `${payload}.${mac(payload, secret).toString("base64url")}`;
}

/**
 * The context a gateway signed, checked against `secrets`: the current secret, and during a
 * rotation the previous one too (`internal.secret_previous`), so that a context signed by a gateway
 * still on either is accepted while the Deployments roll (docs/operations.md, "Rotating the
 * internal secret"). Null when no secret signed it, it is malformed or it has expired.
 */
export function verifyInternalContext(value: string, secrets: string | readonly string[], now = Date.now()): InternalContext | null {
  const [payload, sig, extra] = value.split(".");
  if (!payload || !sig || extra !== undefined) return null;
  const given = Buffer.from(sig, "base64url");
  const signedBy = (secret: string) => {
    const expected = mac(payload, secret);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (!(typeof secrets === "string" ? [secrets] : secrets).some(signedBy)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const ctx = InternalContext.safeParse(parsed);
  if (!ctx.success || ctx.data.exp < Math.floor(now / 1000)) return null;
  return ctx.data;
}

const contexts = new WeakMap<Request, InternalContext>();

/** The verified context of a request, if any. */
export function internalContextOf(req: Request): InternalContext | undefined {
  return contexts.get(req);
}

/** Services refuse any request without a valid context: nothing a client sends can forge one. */
export function requireInternalContext(secrets: string | readonly string[]) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const header = req.header(INTERNAL_CONTEXT_HEADER);
    const ctx = header ? verifyInternalContext(header, secrets) : null;
    if (!ctx) {
      next(errors.unauthenticated("missing or invalid internal context"));
      return;
    }
    contexts.set(req, ctx);
    enrichContext({ request_id: ctx.request_id, ...(ctx.actor ? { user_id: ctx.actor.user_id } : {}) });
    next();
  };
}

/** The authenticated caller; a route that reaches here without one is a gateway misconfiguration. */
export function actorOf(req: Request): Actor {
  const actor = contexts.get(req)?.actor;
  if (!actor) throw errors.unauthenticated();
  return actor;
}

export function clientIpOf(req: Request): string {
  return contexts.get(req)?.client_ip ?? req.socket.remoteAddress ?? "";
}
