import { LINK_CHECK_LIMITS, type LinkCheckResult } from "@burnbox/contracts";
import type { LinkProber, ProbeOutcome } from "./link-prober";

/** A link's entry of the report: `ok` for a 2xx; a 3xx with its Location resolved against the URL; a failure with no status. */
export function linkResultOf(url: string, outcome: ProbeOutcome): LinkCheckResult {
  if ("error" in outcome) return { url, status: null, ok: false, error: outcome.error };
  const { status, location } = outcome;
  const result: LinkCheckResult = { url, status, ok: status >= 200 && status < 300 };
  if (status >= 300 && status < 400 && location !== null) {
    let target = location;
    try {
      target = new URL(location, url).toString();
    } catch {
      // a Location that does not resolve is reported as it was sent
    }
    result.redirect_to = target;
  }
  return result;
}

/** One link: HEAD, then GET when HEAD answers 405 or 501, both within the one link's time. */
export async function checkLink(
  prober: LinkProber,
  url: string,
  perLinkMs: number = LINK_CHECK_LIMITS.perLinkMs,
): Promise<LinkCheckResult> {
  const signal = AbortSignal.timeout(perLinkMs);
  let outcome = await prober.probe(url, "HEAD", signal);
  if ("status" in outcome && (outcome.status === 405 || outcome.status === 501)) outcome = await prober.probe(url, "GET", signal);
  return linkResultOf(url, outcome);
}

/** Every link, `concurrency` at a time, the results in the links' order. */
export async function checkLinks(
  prober: LinkProber,
  urls: readonly string[],
  opts: { concurrency?: number; perLinkMs?: number } = {},
): Promise<LinkCheckResult[]> {
  const results: LinkCheckResult[] = new Array<LinkCheckResult>(urls.length);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const i = next++;
      results[i] = await checkLink(prober, urls[i]!, opts.perLinkMs);
    }
  };
  const workers = Math.min(opts.concurrency ?? LINK_CHECK_LIMITS.concurrency, urls.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
