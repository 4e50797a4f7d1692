import { createHash, createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { PinnedTarget } from "./target";
import { ProbeFailure } from "./smtp-probe";

export interface S3Request {
  target: PinnedTarget;
  https: boolean;
  port: number;
  bucket: string;
  region: string;
  accessKey?: string | undefined;
  secretKey?: string | undefined;
  timeoutMs: number;
  now: Date;
}

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const hmac = (key: Buffer | string, s: string) => createHmac("sha256", key).update(s, "utf8").digest();

/**
 * The AWS Signature V4 headers of a path-style `HEAD /<bucket>` (no query, empty body): what the
 * S3 API and S3-compatible stores (MinIO, s3rver) check. The canonical form is the documented one
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html).
 */
export function signHeadBucket(r: { hostHeader: string; bucket: string; region: string; accessKey: string; secretKey: string; now: Date }) {
  const amzDate = r.now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256("");
  const signedHeaders = "host;x-amz-content-sha256;x-amz-date";
  const canonical = [
    "HEAD",
    `/${encodeURIComponent(r.bucket)}`,
    "",
    `host:${r.hostHeader}\nx-amz-content-sha256:${payloadHash}\nx-amz-date:${amzDate}\n`,
    signedHeaders,
    payloadHash,
  ].join("\n");
  const scope = `${day}/${r.region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${r.secretKey}`, day), r.region), "s3"), "aws4_request");
  const signature = createHmac("sha256", key).update(toSign, "utf8").digest("hex");
  return {
    "x-amz-date": amzDate,
    "x-amz-content-sha256": payloadHash,
    authorization: `AWS4-HMAC-SHA256 Credential=${r.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

/**
 * `HEAD /<bucket>` on the pinned address (the socket's lookup answers the checked address; the Host
 * header and TLS name stay the host the caller gave). Redirects are not followed. Answers the HTTP
 * status; a connection failure or timeout is a `ProbeFailure` with a generic message.
 */
export function headBucket(r: S3Request): Promise<number> {
  const defaultPort = r.https ? 443 : 80;
  const hostName = r.target.host.includes(":") ? `[${r.target.host}]` : r.target.host;
  const hostHeader = r.port === defaultPort ? hostName : `${hostName}:${r.port}`;
  const signed =
    r.accessKey && r.secretKey
      ? signHeadBucket({ hostHeader, bucket: r.bucket, region: r.region, accessKey: r.accessKey, secretKey: r.secretKey, now: r.now })
      : {};
  return new Promise((resolve, reject) => {
    const client = r.https ? https : http;
    const req = client.request(
      {
        method: "HEAD",
        host: r.target.host,
        port: r.port,
        path: `/${encodeURIComponent(r.bucket)}`,
        headers: { host: hostHeader, ...signed },
        lookup: r.target.lookup,
        timeout: r.timeoutMs,
        agent: false,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    const timer = setTimeout(() => req.destroy(new ProbeFailure("timed out")), r.timeoutMs);
    req.on("timeout", () => req.destroy(new ProbeFailure("timed out")));
    req.on("error", (err) => reject(err instanceof ProbeFailure ? err : new ProbeFailure("connection failed")));
    req.on("close", () => clearTimeout(timer));
    req.end();
  });
}
