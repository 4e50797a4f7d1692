import { lookup as systemLookup, type LookupAddress } from "node:dns";
import { Resolver as DnsResolver } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net, { type LookupFunction } from "node:net";
import tls from "node:tls";
import { DEFAULT_MAILER_PORTS } from "../core/config";
import { EMPTY_ALLOWLIST, addressProblem, parseAllowlist, type Allowlist } from "./address-policy";

/**
 * The one outbound guard (spec 6.4): every connection a service opens to a destination a user or
 * an admin supplied (webhook receivers, SSO issuers, the saved mailer, the setup and admin probes)
 * goes through here. A destination is resolved through `dns.servers` when set (else the system's
 * lookup), every address of the answer must pass `addressProblem` (and the name `hostProblem`),
 * the optional port list must hold the port, and the socket goes to the address that was checked,
 * so a DNS answer that changes in between cannot redirect it. The operator's allow-list (an
 * `Allowlist`: host names or CIDR ranges) is the only exemption from the address rules.
 */

/** The SMTP ports a user-supplied mailer may use by default (contract notes: submission and relay); `mailer.allowed_ports` changes them. */
export const SMTP_SUBMISSION_PORTS: readonly number[] = DEFAULT_MAILER_PORTS;

/** Why a destination was refused before any connection; its message is safe to show the caller. */
export class RefusedTarget extends Error {
  override name = "RefusedTarget";
}

/** A destination whose name did not resolve (no such name, no address, or the DNS failed): refused, for want of an address to check. */
export class UnresolvedTarget extends RefusedTarget {
  override name = "UnresolvedTarget";
}

/** Any C0 control character or DEL: never part of a URL or host name we accept (the URL parser would drop some silently). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** The host as the caller wrote it: lower case, no brackets, no trailing dots. */
export const normalHost = (host: string): string =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");

/** Null when a host (name or IP literal) may be reached by the rules that need no DNS, else why not. */
export function hostProblem(rawHost: string, allowed: Allowlist = EMPTY_ALLOWLIST): string | null {
  if (CONTROL_CHARACTER.test(rawHost)) return "host holds a control character";
  const host = normalHost(rawHost);
  if (!host) return "host is required";
  if (allowed.hosts.has(host)) return null;
  if (net.isIP(host)) return addressProblem(host, allowed) ? "internal or reserved address" : null;
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local") || !host.includes(".")) {
    return "internal name";
  }
  return null;
}

/** Every address of a host name (injectable, so tests can point a name anywhere). */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) =>
    systemLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** "No such name" and "no such record" leave that family empty; anything else (SERVFAIL, timeout) is an error. */
async function orEmpty(lookup: Promise<string[]>): Promise<string[]> {
  try {
    return await lookup;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return [];
    throw err;
  }
}

/**
 * A and AAAA records asked of `dns.servers`, or the system's lookup when none are set. Names on the
 * allow-list (local test targets such as `localhost`) keep the system's lookup, which knows the
 * hosts file.
 */
export function hostResolver(dns: { servers: readonly string[]; timeout_ms: number }, allowed: Allowlist = EMPTY_ALLOWLIST): HostResolver {
  if (dns.servers.length === 0) return systemResolver;
  const servers = [...dns.servers];
  return async (hostname) => {
    if (net.isIP(hostname)) return [{ address: hostname, family: net.isIP(hostname) }];
    if (allowed.hosts.has(normalHost(hostname))) return systemResolver(hostname);
    const resolver = new DnsResolver({ timeout: dns.timeout_ms, tries: 1 });
    resolver.setServers(servers);
    const [v4, v6] = await Promise.all([orEmpty(resolver.resolve4(hostname)), orEmpty(resolver.resolve6(hostname))]);
    const addresses: LookupAddress[] = [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
    if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no addresses`), { code: "ENOTFOUND" });
    return addresses;
  };
}

/** How a service reaches user-supplied destinations: its resolver and the operator's exemptions. */
export interface OutboundPolicy {
  resolve: HostResolver;
  allowed: Allowlist;
}

/** The policy of a service's settings: `dns.servers`/`dns.timeout_ms` and its `unsafe_allowed_targets`. */
export function outboundPolicy(opts: {
  dns: { servers: readonly string[]; timeout_ms: number };
  allowedTargets?: readonly string[];
  resolve?: HostResolver;
}): OutboundPolicy {
  const allowed = parseAllowlist(opts.allowedTargets ?? []);
  return { allowed, resolve: opts.resolve ?? hostResolver(opts.dns, allowed) };
}

/** A checked destination: the one address the socket goes to, and the name it stands for (SNI, Host). */
export interface PinnedTarget {
  host: string;
  address: string;
  family: 4 | 6;
  /** A net/http `lookup` that answers the checked address whatever the name, so nothing resolves twice. */
  lookup: LookupFunction;
}

/** A `lookup` that always answers `address` (the `all` and `family` options honoured). */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_name, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** Resolves `host` and checks every address of the answer; the first usable one (of `family` when asked). */
async function checkedAddress(host: string, policy: OutboundPolicy, family?: number): Promise<LookupAddress> {
  const problem = hostProblem(host, policy.allowed);
  if (problem) throw new RefusedTarget(`host is not allowed: ${problem}`);
  const name = normalHost(host);
  let addresses: LookupAddress[];
  try {
    addresses = net.isIP(name) ? [{ address: name, family: net.isIP(name) }] : await policy.resolve(name);
  } catch {
    throw new UnresolvedTarget("host could not be resolved");
  }
  if (addresses.length === 0) throw new UnresolvedTarget("host could not be resolved");
  if (!policy.allowed.hosts.has(name)) {
    for (const a of addresses) {
      const why = addressProblem(a.address, policy.allowed);
      if (why) throw new RefusedTarget(`host is not allowed: ${why}`);
    }
  }
  return addresses.find((a) => !family || a.family === family) ?? addresses[0]!;
}

/**
 * Resolves `host` once under the rules and pins the answer. `ports` (when given) must hold `port`:
 * the allow-list exempts addresses, never ports.
 */
export async function pinTarget(
  host: string,
  policy: OutboundPolicy,
  opts: { port?: number; ports?: readonly number[] } = {},
): Promise<PinnedTarget> {
  if (opts.ports && (opts.port === undefined || !opts.ports.includes(opts.port))) {
    throw new RefusedTarget(`port not allowed: use one of ${opts.ports.join(", ")}`);
  }
  const chosen = await checkedAddress(host, policy);
  const family = chosen.family === 6 ? 6 : 4;
  return { host: normalHost(host), address: chosen.address, family, lookup: pinnedLookup(chosen.address, family) };
}

/**
 * A connection-time `lookup` for http(s) agents: each new socket resolves and checks its host then,
 * and goes to the checked address (pooled keep-alive sockets stay on the address checked when they
 * were opened). Honours the `all` and `family` options.
 */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (host, options, callback) => {
    const family = (options as { family?: number }).family;
    checkedAddress(host, policy, family)
      .then((chosen) => {
        if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      })
      .catch((err: Error) => callback(err as NodeJS.ErrnoException, "", 4));
  };
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, up to `maxBytes` (empty when `maxBytes` is 0: drained, not kept). */
  body: Buffer;
}

export interface GuardedRequestOptions {
  policy: OutboundPolicy;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /** The largest body kept; a longer one fails the request. 0: the body is drained and dropped. */
  maxBytes?: number;
  /** A keep-alive agent of the caller's (its sockets are opened through the guarded lookup too). */
  agent?: http.Agent;
}

/**
 * One HTTP(S) request under the rules: the URL must be http(s) without credentials or control
 * characters, its host is checked (an IP literal at once, a name when the socket is opened), the
 * TLS name stays the URL's host, and redirects are never followed (a 3xx is returned as such). A
 * reused keep-alive socket that the server had just closed is retried once on a new socket.
 */
export async function guardedRequest(rawUrl: string | URL, opts: GuardedRequestOptions): Promise<GuardedResponse> {
  if (typeof rawUrl === "string" && CONTROL_CHARACTER.test(rawUrl)) throw new RefusedTarget("url holds a control character");
  let url: URL;
  try {
    url = typeof rawUrl === "string" ? new URL(rawUrl) : rawUrl;
  } catch {
    throw new RefusedTarget("invalid url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new RefusedTarget("url must use http or https");
  if (url.username || url.password) throw new RefusedTarget("url must not carry credentials");
  const host = normalHost(url.hostname);
  const problem = hostProblem(host, opts.policy.allowed);
  if (problem) throw new RefusedTarget(`host is not allowed: ${problem}`);
  const first = await send(url, host, opts);
  return "retry" in first ? ((await send(url, host, opts)) as GuardedResponse) : first;
}

function send(url: URL, host: string, opts: GuardedRequestOptions): Promise<GuardedResponse | { retry: true }> {
  const secure = url.protocol === "https:";
  const client = secure ? https : http;
  const maxBytes = opts.maxBytes ?? 0;
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: opts.method ?? "GET",
        headers: opts.headers ?? {},
        lookup: guardedLookup(opts.policy),
        ...(opts.agent ? { agent: opts.agent } : { agent: false }),
        ...(secure && !net.isIP(host) ? { servername: host } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (maxBytes === 0) return;
          size += c.length;
          if (size > maxBytes) req.destroy(new Error("response too large"));
          else chunks.push(c);
        });
        res.on("end", () => done(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })));
        res.on("error", (err) => done(() => reject(err)));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on("error", (err) => {
      const retry = req.reusedSocket && (err as NodeJS.ErrnoException).code === "ECONNRESET";
      done(() => (retry ? resolve({ retry: true }) : reject(err)));
    });
    req.end(opts.body);
  });
}

/**
 * A TCP (or TLS) connection under the rules: the host is pinned (`pinTarget`, with the port list)
 * and the socket opened to the checked address; TLS verifies the certificate against the host name
 * the caller gave. Resolves once connected (or the TLS handshake is done).
 */
export async function guardedConnect(
  host: string,
  port: number,
  opts: { policy: OutboundPolicy; ports?: readonly number[]; tls?: boolean; timeoutMs: number },
): Promise<net.Socket> {
  const target = await pinTarget(host, opts.policy, { port, ...(opts.ports ? { ports: opts.ports } : {}) });
  const socket = opts.tls
    ? tls.connect({ host: target.address, port, ...(net.isIP(target.host) ? {} : { servername: target.host }) })
    : net.connect({ host: target.address, port, family: target.family });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => socket.destroy(new Error("timed out")), opts.timeoutMs);
    socket.once(opts.tls ? "secureConnect" : "connect", () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once("error", (err: Error) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  return socket;
}
