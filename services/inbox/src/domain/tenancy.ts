import type { RpcName } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "./deps";

/** A question to tenancy over NATS; when tenancy does not answer, the caller gets 503, not 500. */
export async function askTenancy<N extends RpcName>(deps: InboxDeps, name: N, body: Parameters<typeof rpcRequest<N>>[3]) {
  try {
    return await rpcRequest(deps.nc, deps.config.nats.namespace, name, body);
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("tenancy unavailable");
    throw err;
  }
}
