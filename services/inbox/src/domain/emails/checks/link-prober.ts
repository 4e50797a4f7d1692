import type { LinkCheckError } from "@burnbox/contracts";

/** How one link answered: an HTTP status (with its Location, if any), or why there was none. */
export type ProbeOutcome = { status: number; location: string | null } | { error: LinkCheckError };

/** The port of the link check (extensions section 7): one request to `url` with `method`, under the outbound rules. */
export interface LinkProber {
  probe(url: string, method: "HEAD" | "GET", signal: AbortSignal): Promise<ProbeOutcome>;
}
