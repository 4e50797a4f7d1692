import type { InboxDeps } from "../deps";
import { demoWindow } from "./demo-rules";

/** Removes the per-IP demo windows before the current hour (system-driven: the cleanup worker). */
export async function pruneDemoQuotas(deps: InboxDeps): Promise<number> {
  const currentWindow = demoWindow(deps.now()).start;
  return deps.data.write((repos) => repos.demoQuotas.prune(currentWindow));
}
