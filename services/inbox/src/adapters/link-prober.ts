import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { LinkCheckError } from "@burnbox/contracts";
import {
  CONTROL_CHARACTER,
  RefusedTarget,
  UnresolvedTarget,
  guardedLookup,
  hostProblem,
  normalHost,
  type OutboundPolicy,
} from "@burnbox/service-kit/security";
import type { LinkProber, ProbeOutcome } from "../domain/emails/checks/link-prober";

/** Error codes of a failed TLS handshake or certificate check. */
const TLS_CODES = new Set([
  "EPROTO",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_UNTRUSTED",
  "CERT_REVOKED",
]);

function failureOf(err: unknown, signal: AbortSignal): LinkCheckError {
  if (signal.aborted) return "timeout";
  if (err instanceof UnresolvedTarget) return "unreachable";
  if (err instanceof RefusedTarget) return "refused";
  const code = (err as NodeJS.ErrnoException | null)?.code ?? "";
  if (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_") || code.startsWith("CERT_")) return "tls";
  return "unreachable";
}

/**
 * The link check's requests (extensions section 7) under the kit's outbound guard, with the webhook
 * rules and allow-list (`webhooks.unsafe_allowed_targets`): http(s) only, no credentials, the host
 * held to `hostProblem`, and every address it resolves to (through `dns.servers`) checked when the
 * socket opens, which then goes to the checked address. One request per call, no redirect followed,
 * no body read: the answer is its status line and Location.
 */
export function guardedLinkProber(policy: OutboundPolicy): LinkProber {
  return {
    probe: (rawUrl, method, signal) => {
      if (CONTROL_CHARACTER.test(rawUrl)) return Promise.resolve({ error: "invalid" });
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch {
        return Promise.resolve({ error: "invalid" });
      }
      if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password)
        return Promise.resolve({ error: "invalid" });
      const host = normalHost(url.hostname);
      if (hostProblem(host, policy.allowed)) return Promise.resolve({ error: "refused" });
      if (signal.aborted) return Promise.resolve({ error: "timeout" });
      const secure = url.protocol === "https:";
      return new Promise<ProbeOutcome>((resolve) => {
        const req = (secure ? https : http).request(
          {
            protocol: url.protocol,
            hostname: host,
            port: url.port || undefined,
            path: `${url.pathname}${url.search}`,
            method,
            headers: { "user-agent": "BurnBox-LinkCheck/1", accept: "*/*" },
            lookup: guardedLookup(policy),
            agent: false,
            signal,
            ...(secure && !net.isIP(host) ? { servername: host } : {}),
          },
          (res) => {
            const location = res.headers.location;
            resolve({ status: res.statusCode ?? 0, location: typeof location === "string" ? location : null });
            // the status line and headers are the answer; the body is not read
            res.destroy();
          },
        );
        req.on("error", (err) => resolve({ error: failureOf(err, signal) }));
        req.end();
      });
    },
  };
}
