import { RpcName } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";

/**
 * complete: tenancy's half of setup committed, or a system admin exists that setup did not create
 * (an address in `admin.emails` whose owner followed its verification link: identity never makes
 * one on registration alone, so nobody completes setup without the setup token or that proof).
 * open: no system admin yet, or only the one an interrupted setup created, which a retry of
 * complete finishes.
 */
export type SetupProgress = "complete" | "open";

export async function setupProgress(deps: TenancyDeps): Promise<SetupProgress> {
  if (await deps.data.repos.setup.completed()) return "complete";
  try {
    const state = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.setupState, {});
    return state.admin_exists && !state.setup_admin_id ? "complete" : "open";
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("setup state unavailable: identity did not answer");
    throw err;
  }
}
