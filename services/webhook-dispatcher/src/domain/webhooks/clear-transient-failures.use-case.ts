import type { DispatcherDeps } from "../deps";

/** The `webhook_retry` job (spec 3.3): clears a failure_count of 1 or 2 on active webhooks. Returns how many. */
export function clearTransientFailures(deps: DispatcherDeps): Promise<number> {
  return deps.data.repos.webhooks.resetTransientFailures();
}
