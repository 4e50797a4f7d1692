import type { DemoStatus } from "@burnbox/contracts";
import type { InboxDeps } from "../deps";
import { demoEnabled } from "./demo-access";

/** Whether the demo is on (public: anyone may ask). */
export async function getDemoStatus(deps: InboxDeps): Promise<DemoStatus> {
  return Promise.resolve({ enabled: demoEnabled(deps) });
}
