import type { SetupStatus } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { datastores } from "./datastores";
import { setupProgress } from "./setup-progress";

/** Public: complete or not; while not, where the datastores are (no credentials). */
export async function getSetupStatus(deps: TenancyDeps): Promise<SetupStatus> {
  if ((await setupProgress(deps)) === "complete") return { completed: true };
  return { completed: false, datastores: await datastores(deps) };
}
