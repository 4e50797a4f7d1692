import type { webhookDispatcherServiceRoutes } from "@burnbox/contracts";

type ServiceRoute = (typeof webhookDispatcherServiceRoutes)[number];

/**
 * The service's routes of the operations `Ids`: one resource's share of the contract. (The
 * contracts export only the whole service's list for this service, not its per-resource arrays.)
 */
export type RoutesOf<Ids extends ServiceRoute["operationId"]> = ReadonlyArray<Extract<ServiceRoute, { operationId: Ids }>>;
