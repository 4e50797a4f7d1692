// The admin area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQuery, apiQueryWith, apiMutation, apiMutationWith, useApi } from "../../api/query";
import { adminKeys } from "./keys";
import { bodyOf, draftFromProvider } from "./sso-presets";
import type { ProviderDraft, SsoProvider } from "./sso-presets";
import type { ListParams } from "../../components";
import { useQuery } from "@tanstack/react-query";
import { errorFromResponse, type BurnBoxError, type components } from "@burnbox/sdk";

export type AdminHealth = components["schemas"]["AdminHealth"];
export type MailerUpdate = components["schemas"]["UpdateMailerConfigRequest"];
export type StorageUpdate = components["schemas"]["UpdateStorageConfigRequest"];
export type PlatformUpdate = components["schemas"]["UpdatePlatformRequest"];
export type Mapping = components["schemas"]["SsoDomainMapping"];
export type MappingBody = components["schemas"]["SsoDomainMappingRequest"];

/** `GET /admin/config/mailer` */
export const useMailerConfig = apiQuery(adminKeys.mailer(), (bb, signal) => bb.api.GET("/admin/config/mailer", { signal }));

/** `PUT /admin/config/mailer` */
export const useSaveMailerConfig = apiMutation((bb, body: MailerUpdate) => bb.api.PUT("/admin/config/mailer", { body }));

/** `POST /admin/infra/test-smtp` */
export const useTestSmtp = apiMutation((bb) => bb.api.POST("/admin/infra/test-smtp"));

/** `GET /admin/config/storage` */
export const useStorageConfig = apiQuery(adminKeys.storage(), (bb, signal) => bb.api.GET("/admin/config/storage", { signal }));

/** `PUT /admin/config/storage` */
export const useSaveStorageConfig = apiMutation((bb, body: StorageUpdate) => bb.api.PUT("/admin/config/storage", { body }));

/** `POST /admin/infra/test-storage` */
export const useTestStorage = apiMutation((bb) => bb.api.POST("/admin/infra/test-storage"));

/** `GET /admin/orgs` */
export const useAdminOrgs = apiQueryWith(
  (args: { q: string; params: ListParams<"q">; paramsPerPage: number }) => adminKeys.orgs(args.q, args.params.page),
  (bb, signal, args) =>
    bb.api.GET("/admin/orgs", {
      params: { query: { page: args.params.page, per_page: args.paramsPerPage, ...(args.q ? { q: args.q } : {}) } },
      signal,
    }),
);

/** `GET /admin/version` */
export const useVersion = apiQuery(adminKeys.version(), (bb, signal) => bb.api.GET("/admin/version", { signal }));

/** `GET /admin/platform` */
export const usePlatformSettings = apiQuery(adminKeys.platform(), (bb, signal) => bb.api.GET("/admin/platform", { signal }));

/** `PUT /admin/platform` */
export const useSavePlatformSettings = apiMutation((bb, body: PlatformUpdate) => bb.api.PUT("/admin/platform", { body }));

/** `GET /admin/orgs`: the first 100, for the org pickers of SSO providers and mappings */
export const useOrgChoices = apiQuery(adminKeys.orgs("", 1), (b, signal) =>
  b.api.GET("/admin/orgs", { params: { query: { per_page: 100 } }, signal }),
);

/** `POST /admin/sso/test` */
export const useTestSsoDraft = apiMutation((b, body: ReturnType<typeof bodyOf>) => b.api.POST("/admin/sso/test", { body }));

/** `GET /orgs/{orgId}/teams` */
export const useMappingTeams = apiQueryWith(
  (args: { orgId: string | null }) => ["admin", "org-teams", args.orgId ?? ""],
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/teams", { params: { path: { orgId: args.orgId! }, query: { per_page: 100 } }, signal }),
);

/** `GET /admin/sso/providers/{pid}/domain-mappings` */
export const useDomainMappings = apiQueryWith(
  (args: { pid: string }) => adminKeys.ssoMappings(args.pid),
  (bb, signal, args) =>
    bb.api.GET("/admin/sso/providers/{pid}/domain-mappings", { params: { path: { pid: args.pid }, query: { per_page: 100 } }, signal }),
);

/** `DELETE /admin/sso/providers/{pid}/domain-mappings/{mid}` */
export const useDeleteDomainMapping = apiMutationWith((bb, m: Mapping, args: { pid: string }) =>
  bb.api.DELETE("/admin/sso/providers/{pid}/domain-mappings/{mid}", { params: { path: { pid: args.pid, mid: m.id } } }),
);

/** `PUT /admin/sso/providers/{pid}/domain-mappings/{mid}` (a mapping's change) or `POST …/domain-mappings` (a new one) */
export const useSaveDomainMapping = apiMutationWith((bb, body: MappingBody, a: { pid: string; mappingId: string | undefined }) =>
  a.mappingId
    ? bb.api.PUT("/admin/sso/providers/{pid}/domain-mappings/{mid}", { params: { path: { pid: a.pid, mid: a.mappingId } }, body })
    : bb.api.POST("/admin/sso/providers/{pid}/domain-mappings", { params: { path: { pid: a.pid } }, body }),
);

/** `POST /admin/sso/domain-mappings/preview` */
export const usePreviewDomainMapping = apiMutationWith((bb, address: string, args: { providerName: string }) =>
  bb.api.POST("/admin/sso/domain-mappings/preview", { body: { email: address, provider: args.providerName } }),
);

/** `GET /admin/sso/providers/{pid}` */
export const useSsoProvider = apiQueryWith(
  (args: { pid: string }) => adminKeys.ssoProvider(args.pid),
  (bb, signal, args) => bb.api.GET("/admin/sso/providers/{pid}", { params: { path: { pid: args.pid } }, signal }),
);

/** `PUT /admin/sso/providers/{pid}` */
export const useSaveSsoProvider = apiMutationWith((bb, d: ProviderDraft, args: { pid: string }) =>
  bb.api.PUT("/admin/sso/providers/{pid}", { params: { path: { pid: args.pid } }, body: bodyOf(d) }),
);

/** `PUT /admin/sso/providers/{pid}` */
export const useToggleSsoProvider = apiMutationWith((bb, enabled: boolean, a: { provider: SsoProvider }) =>
  bb.api.PUT("/admin/sso/providers/{pid}", {
    params: { path: { pid: a.provider.id } },
    body: bodyOf({ ...draftFromProvider(a.provider), enabled }),
  }),
);

/** `POST /admin/sso/test` */
export const useTestSsoProvider = apiMutationWith((bb, _vars: void, args: { pid: string }) =>
  bb.api.POST("/admin/sso/test", { body: { provider_id: args.pid } }),
);

/** `DELETE /admin/sso/providers/{pid}` */
export const useDeleteSsoProvider = apiMutationWith((bb, _vars: void, args: { pid: string }) =>
  bb.api.DELETE("/admin/sso/providers/{pid}", { params: { path: { pid: args.pid } } }),
);

/** `GET /admin/sso/providers` */
export const useSsoProviders = apiQuery(adminKeys.ssoProviders(), (bb, signal) =>
  bb.api.GET("/admin/sso/providers", { params: { query: { per_page: 100 } }, signal }),
);

/** `POST /admin/sso/providers` */
export const useCreateSsoProvider = apiMutation((bb, d: ProviderDraft) => bb.api.POST("/admin/sso/providers", { body: bodyOf(d) }));

/** `GET /admin/users` */
export const useUsers = apiQueryWith(
  (args: { q: string; params: ListParams<"q">; paramsPerPage: number }) => adminKeys.users(args.q, args.params.page),
  (bb, signal, args) =>
    bb.api.GET("/admin/users", {
      params: { query: { page: args.params.page, per_page: args.paramsPerPage, ...(args.q ? { q: args.q } : {}) } },
      signal,
    }),
);

/** `PATCH /admin/users/{id}` */
export const useUpdateUser = apiMutationWith((bb, max_sessions: number | null, args: { userId: string }) =>
  bb.api.PATCH("/admin/users/{id}", { params: { path: { id: args.userId } }, body: { max_sessions } }),
);

/** `DELETE /admin/users/{id}/sessions` */
export const useRevokeUserSessions = apiMutationWith((bb, _vars: void, args: { userId: string }) =>
  bb.api.DELETE("/admin/users/{id}/sessions", { params: { path: { id: args.userId } } }),
);

/** `POST /admin/users/{id}/migrate-auth` */
export const useMigrateUserAuth = apiMutationWith((bb, body: components["schemas"]["MigrateAuthRequest"], args: { userId: string }) =>
  bb.api.POST("/admin/users/{id}/migrate-auth", { params: { path: { id: args.userId } }, body }),
);

/** `DELETE /admin/users/{id}` */
export const useDeleteUser = apiMutationWith((bb, _vars: void, args: { userId: string }) =>
  bb.api.DELETE("/admin/users/{id}", { params: { path: { id: args.userId } } }),
);

/** `GET /admin/health`, every 15 s; a 503 still carries the report (some check is in error): read it rather than fail. */
export function useAdminHealth() {
  const bb = useApi();
  return useQuery<AdminHealth, BurnBoxError>({
    queryKey: adminKeys.health(),
    queryFn: async ({ signal }) => {
      const r = await bb.api.GET("/admin/health", { signal });
      if (r.data) return r.data;
      if (r.response.status === 503 && r.error) return r.error as AdminHealth;
      throw errorFromResponse(r.response.status, r.error, r.response.headers);
    },
    refetchInterval: 15_000,
  });
}

/** Where the console's API client sends its calls (`/api/v1`, or the configured base): the SSO callback URL is shown under it. */
export function useApiBaseUrl(): string {
  return useApi().baseUrl;
}
