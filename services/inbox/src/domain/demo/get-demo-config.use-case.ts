import type { InboxDeps } from "../deps";

/** The configured `demo.enabled`, for identity's platform settings (a saved `demo_enabled` wins over it). */
export function getDemoConfig(deps: InboxDeps): Promise<{ enabled: boolean }> {
  return Promise.resolve({ enabled: deps.config.demo.enabled });
}
