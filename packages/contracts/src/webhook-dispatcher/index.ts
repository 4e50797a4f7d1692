import { webhookDeliveriesRoutes } from "./webhook-deliveries.routes";
import { webhooksRoutes } from "./webhooks.routes";

export * from "./webhooks.schemas";
export * from "./webhook-deliveries.schemas";

export const webhookRoutes = [...webhooksRoutes, ...webhookDeliveriesRoutes] as const;

/** Everything the webhook dispatcher serves. */
export const webhookDispatcherServiceRoutes = webhookRoutes;
export * from "./webhook-deliveries.routes";
export * from "./webhooks.routes";
export * from "./webhooks.rpc";
