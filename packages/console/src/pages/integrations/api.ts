// The integrations area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQuery, apiQueryWith, apiMutationWith } from "../../api/query";
import { teamKeys } from "./keys";
import type { ApiKey } from "./key-status";
import type { TeamScope } from "./TeamGate";
import type { Webhook, WebhookEvent } from "./WebhookFormModal";
import type { ListParams } from "../../components";

/** `GET /roles` */
export const useRoles = apiQuery(teamKeys.permissions(), (bb, signal) => bb.api.GET("/roles", { signal }));

/** `POST /orgs/{orgId}/teams/{teamId}/api-keys` */
export const useCreateApiKey = apiMutationWith(
  (
    bb,
    body: { name: string; scopes: string[]; expires_in?: string; allowed_ips: string[] },
    args: { scopeOrgId: string; scopeTeamId: string },
  ) =>
    bb.api.POST("/orgs/{orgId}/teams/{teamId}/api-keys", { params: { path: { orgId: args.scopeOrgId, teamId: args.scopeTeamId } }, body }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/api-keys` */
export const useApiKeys = apiQueryWith(
  (a: { scope: TeamScope; page: number; perPage: number; includeRevoked: boolean }) =>
    teamKeys.apiKeyPage(a.scope.teamId, a.page, a.perPage, { revoked: a.includeRevoked ? "shown" : undefined }),
  (bb, signal, { scope, page, perPage, includeRevoked }) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/api-keys", {
      params: {
        path: { orgId: scope.orgId, teamId: scope.teamId },
        query: { page, per_page: perPage, ...(includeRevoked ? { include_revoked: true } : {}) },
      },
      signal,
    }),
);

/** `PATCH /orgs/{orgId}/teams/{teamId}/api-keys/{keyId}` */
export const useSetApiKeyActive = apiMutationWith((bb, key: ApiKey, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.PATCH("/orgs/{orgId}/teams/{teamId}/api-keys/{keyId}", {
    params: { path: { ...args.path, keyId: key.id } },
    body: { is_active: !key.is_active },
  }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/api-keys/{keyId}/rotate` */
export const useRotateApiKey = apiMutationWith((bb, key: ApiKey, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.POST("/orgs/{orgId}/teams/{teamId}/api-keys/{keyId}/rotate", { params: { path: { ...args.path, keyId: key.id } } }),
);

/** `DELETE /orgs/{orgId}/teams/{teamId}/api-keys/{keyId}` */
export const useRevokeApiKey = apiMutationWith((bb, key: ApiKey, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.DELETE("/orgs/{orgId}/teams/{teamId}/api-keys/{keyId}", { params: { path: { ...args.path, keyId: key.id } } }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/api-keys/bulk-revoke` */
export const useBulkRevokeApiKeys = apiMutationWith((bb, ids: string[], args: { path: { orgId: string; teamId: string } }) =>
  bb.api.POST("/orgs/{orgId}/teams/{teamId}/api-keys/bulk-revoke", { params: { path: args.path }, body: { key_ids: ids } }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/webhooks` */
export const useCreateWebhook = apiMutationWith(
  (bb, body: { url: string; events: WebhookEvent[] }, args: { path: { orgId: string; teamId: string } }) =>
    bb.api.POST("/orgs/{orgId}/teams/{teamId}/webhooks", { params: { path: args.path }, body }),
);

/** `PATCH /orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}` */
export const useUpdateWebhook = apiMutationWith(
  (
    bb,
    body: { url: string; events: WebhookEvent[]; active: boolean },
    args: { path: { orgId: string; teamId: string }; webhookId: string | undefined },
  ) =>
    bb.api.PATCH("/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}", {
      // only an opened edit dialog (of a webhook) sends
      params: { path: { ...args.path, webhookId: args.webhookId! } },
      body,
    }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/webhooks` */
export const useTeamWebhooks = apiQueryWith(
  (args: { scopeTeamId: string; scopeOrgId: string }) => teamKeys.webhookPage(args.scopeTeamId, 1, 100),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/webhooks", {
      params: { path: { orgId: args.scopeOrgId, teamId: args.scopeTeamId }, query: { per_page: 100 } },
      signal,
    }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}/deliveries` */
export const useWebhookDeliveries = apiQueryWith(
  (args: {
    scopeTeamId: string;
    webhookId: string;
    list: ListParams<never>;
    listPerPage: number;
    path: { orgId: string; teamId: string; webhookId: string };
  }) => teamKeys.deliveries(args.scopeTeamId, args.webhookId, args.list.page, args.listPerPage),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}/deliveries", {
      params: { path: args.path, query: { page: args.list.page, per_page: args.listPerPage } },
      signal,
    }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}/stats` */
export const useWebhookStats = apiQueryWith(
  (args: { scopeTeamId: string; webhookId: string; path: { orgId: string; teamId: string; webhookId: string } }) =>
    teamKeys.stats(args.scopeTeamId, args.webhookId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}/stats", { params: { path: args.path }, signal }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver` */
export const useRedeliver = apiMutationWith(
  (bb, deliveryId: string, args: { path: { orgId: string; teamId: string; webhookId: string } }) =>
    bb.api.POST("/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", {
      params: { path: { ...args.path, deliveryId } },
    }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/webhooks` */
export const useWebhooks = apiQueryWith(
  (args: { scopeTeamId: string; list: ListParams<never>; listPerPage: number; path: { orgId: string; teamId: string } }) =>
    teamKeys.webhookPage(args.scopeTeamId, args.list.page, args.listPerPage),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/webhooks", {
      params: { path: args.path, query: { page: args.list.page, per_page: args.listPerPage } },
      signal,
    }),
);

/** `DELETE /orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}` */
export const useDeleteWebhook = apiMutationWith((bb, hook: Webhook, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.DELETE("/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}", { params: { path: { ...args.path, webhookId: hook.id } } }),
);
