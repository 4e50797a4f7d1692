/// <reference types="@burnbox/test-kit/src/s3rver" />
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "../src/adapters/s3-storage";

/** A local S3-protocol server on 127.0.0.1 with one bucket, and the settings that reach it. */
export async function startS3(bucket = "burnbox-test"): Promise<{ settings: S3Settings; stop(): Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), "bb-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    // s3rver's fixed credentials
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: "us-east-1",
      access_key_id: "S3RVER",
      secret_access_key: "S3RVER",
      force_path_style: true,
    },
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
