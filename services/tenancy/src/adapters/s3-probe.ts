import http from "node:http";
import https from "node:https";
import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { PinnedTarget } from "@burnbox/service-kit/security";

export interface S3Check {
  target: PinnedTarget;
  /** The endpoint as the caller gave it (`https://host:port`): the SDK's Host header and TLS name. */
  endpoint: URL;
  bucket: string;
  region: string;
  accessKey?: string | undefined;
  secretKey?: string | undefined;
  timeoutMs: number;
}

/**
 * The AWS SDK's `HeadBucket` (path style, Signature V4 when keys are given, unsigned otherwise),
 * one attempt, through an agent whose `lookup` answers the pinned address: the SDK connects to the
 * address that was checked, whatever the name resolves to now, while the Host header and the TLS
 * name stay the endpoint's host. The SDK follows no redirects. Answers the HTTP status (0 when no
 * answer came: connection failure or timeout).
 */
export async function headBucket(r: S3Check): Promise<number> {
  const agentOptions = { keepAlive: false, lookup: r.target.lookup };
  const client = new S3Client({
    endpoint: r.endpoint.origin,
    region: r.region,
    forcePathStyle: true,
    maxAttempts: 1,
    ...(r.accessKey && r.secretKey
      ? { credentials: { accessKeyId: r.accessKey, secretAccessKey: r.secretKey } }
      : // no keys: an anonymous request (the SDK still wants an identity, then the pass-through signer leaves it unsigned)
        { credentials: { accessKeyId: "", secretAccessKey: "" }, signer: { sign: (request) => Promise.resolve(request) } }),
    requestHandler: {
      httpAgent: new http.Agent(agentOptions),
      httpsAgent: new https.Agent(agentOptions),
      connectionTimeout: r.timeoutMs,
      requestTimeout: r.timeoutMs,
    },
  });
  const abort = AbortSignal.timeout(r.timeoutMs);
  try {
    const out = await client.send(new HeadBucketCommand({ Bucket: r.bucket }), { abortSignal: abort });
    return out.$metadata.httpStatusCode ?? 200;
  } catch (err) {
    return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
  } finally {
    client.destroy();
  }
}
