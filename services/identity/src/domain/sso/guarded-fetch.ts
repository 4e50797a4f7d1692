import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { addressProblem } from "@burnbox/service-kit";

/**
 * A GET under the SSRF rules of spec 6.4, for admin-supplied issuer URLs: the host is resolved
 * when connecting, every answer must be public (loopback, private, link-local, unique-local,
 * unspecified and reserved ranges refused, IPv4-mapped judged as IPv4), the socket goes to the
 * checked address, and redirects are never followed. `exempt` hosts (sso.unsafe_allowed_issuers)
 * skip the address check, for local test providers only.
 */
/** True when no request may go to `address`: the rules webhooks obey (service-kit's `addressProblem`). */
export const nonPublicAddress = (address: string): boolean => addressProblem(address) !== null;

export class RefusedTarget extends Error {}

function checkedLookup(exempt: boolean): LookupFunction {
  return (hostname, _options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 4);
      const bad = exempt ? undefined : addresses.find((a) => nonPublicAddress(a.address));
      if (bad || addresses.length === 0) return callback(new RefusedTarget(`${hostname} resolves to a non-public address`), "", 4);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export interface GuardedAnswer {
  status: number;
  body: string;
}

export function guardedGet(url: URL, opts: { exempt: boolean; timeoutMs: number; maxBytes: number }): Promise<GuardedAnswer> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (ipaddr.isValid(host) && !opts.exempt && nonPublicAddress(host)) {
      reject(new RefusedTarget(`${host} is not a public address`));
      return;
    }
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(
      url,
      { method: "GET", headers: { accept: "application/json" }, lookup: checkedLookup(opts.exempt), timeout: opts.timeoutMs },
      (res) => {
        let size = 0;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > opts.maxBytes) req.destroy(new Error("discovery document too large"));
          else chunks.push(c);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}
