import { pipeline } from "node:stream/promises";
import type { Response } from "express";
import type { Download } from "../domain/files/download";

/**
 * Sends a download: a 302 to the object store, or the bytes streamed (never held whole in memory)
 * as an attachment with their content type and `nosniff`, so a browser never renders them.
 */
export async function sendDownload(res: Response, download: Download): Promise<void> {
  res.setHeader("Cache-Control", "private, no-store");
  if ("redirect" in download) {
    res.redirect(302, download.redirect);
    return;
  }
  res.status(200);
  res.setHeader("Content-Type", download.contentType);
  res.setHeader("Content-Disposition", download.disposition);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
  try {
    await pipeline(download.body, res);
  } catch {
    // the client went away or the store failed mid-stream: the status is sent, so just drop the connection
    res.destroy();
  }
}
