import type { IncomingMessage, RequestListener } from "node:http";
import type { TLSSocket } from "node:tls";
import { headerOf } from "@burnbox/service-kit/http";
import type { GatewayConfig } from "../config";
import { ipInList, type CidrList } from "./client-ip";

/**
 * True when the request reached us over https: on a TLS socket of our own, or from a trusted proxy
 * (rate_limit.trusted_proxies, the peers whose X-Forwarded-For is believed) whose X-Forwarded-Proto
 * says https. The last value counts: the one the trusted peer itself set or appended. Anyone
 * else's X-Forwarded-Proto is a claim about itself and is not believed.
 */
export function arrivedOverHttps(req: IncomingMessage, trusted: CidrList): boolean {
  if ((req.socket as Partial<TLSSocket>).encrypted === true) return true;
  const proto = headerOf(req, "x-forwarded-proto");
  if (proto === undefined || trusted.length === 0 || !ipInList(req.socket.remoteAddress ?? "", trusted)) return false;
  return proto.split(",").pop()!.trim().toLowerCase() === "https";
}

/** The Strict-Transport-Security value the settings give, or undefined when it is off. */
export function hstsValue(hsts: GatewayConfig["hsts"]): string | undefined {
  if (!hsts.enabled) return undefined;
  return `max-age=${hsts.max_age_seconds}${hsts.include_subdomains ? "; includeSubDomains" : ""}`;
}

/**
 * `listener` with Strict-Transport-Security on every answer to a request that arrived over https
 * (never on plain http, where browsers ignore it and it would only mislead), set before anything
 * else of the request runs, so API answers, errors, health checks and the console all carry it.
 */
export function withHsts(listener: RequestListener, hsts: GatewayConfig["hsts"], trusted: CidrList): RequestListener {
  const value = hstsValue(hsts);
  if (value === undefined) return listener;
  return (req, res) => {
    if (arrivedOverHttps(req, trusted)) res.setHeader("Strict-Transport-Security", value);
    listener(req, res);
  };
}
