import type { Handlers } from "@burnbox/service-kit/http";
import type { DispatcherDeps } from "../domain/deps";
import { createWebhook } from "../domain/webhooks/create-webhook.use-case";
import { deleteWebhook } from "../domain/webhooks/delete-webhook.use-case";
import { listWebhooks } from "../domain/webhooks/list-webhooks.use-case";
import { updateWebhook } from "../domain/webhooks/update-webhook.use-case";
import type { RoutesOf } from "./service-routes";

type WebhooksRoutes = RoutesOf<"createWebhook" | "listWebhooks" | "updateWebhook" | "deleteWebhook">;

export const webhooksHandlers = (deps: DispatcherDeps): Handlers<WebhooksRoutes> => ({
  createWebhook: ({ ctx, params, body }) => createWebhook(deps, ctx, { ...params, ...body }),
  listWebhooks: ({ ctx, params, query }) => listWebhooks(deps, ctx, { ...params, ...query }),
  updateWebhook: ({ ctx, params, body }) => updateWebhook(deps, ctx, { ...params, changes: body }),
  deleteWebhook: ({ ctx, params }) => deleteWebhook(deps, ctx, params),
});
