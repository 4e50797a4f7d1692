import type { ssoAdminRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../domain/deps";
import { createSsoDomainMapping } from "../domain/sso-admin/create-sso-domain-mapping.use-case";
import { createSsoProvider } from "../domain/sso-admin/create-sso-provider.use-case";
import { deleteSsoDomainMapping } from "../domain/sso-admin/delete-sso-domain-mapping.use-case";
import { deleteSsoProvider } from "../domain/sso-admin/delete-sso-provider.use-case";
import { getSsoProvider } from "../domain/sso-admin/get-sso-provider.use-case";
import { listSsoProviders } from "../domain/sso-admin/list-sso-providers.use-case";
import { listSsoDomainMappings } from "../domain/sso-admin/list-sso-domain-mappings.use-case";
import { previewSsoDomainMapping } from "../domain/sso-admin/preview-sso-domain-mapping.use-case";
import { testSsoProvider } from "../domain/sso-admin/test-sso-provider.use-case";
import { updateSsoDomainMapping } from "../domain/sso-admin/update-sso-domain-mapping.use-case";
import { updateSsoProvider } from "../domain/sso-admin/update-sso-provider.use-case";

export const ssoAdminHandlers = (deps: IdentityDeps): Handlers<typeof ssoAdminRoutes> => ({
  adminListSsoProviders: ({ ctx, query }) => listSsoProviders(deps, ctx, query),
  adminCreateSsoProvider: ({ ctx, body }) => createSsoProvider(deps, ctx, body),
  adminGetSsoProvider: ({ ctx, params }) => getSsoProvider(deps, ctx, { providerId: params.pid }),
  adminUpdateSsoProvider: ({ ctx, params, body }) => updateSsoProvider(deps, ctx, { providerId: params.pid, body }),
  adminDeleteSsoProvider: ({ ctx, params }) => deleteSsoProvider(deps, ctx, { providerId: params.pid }),
  adminTestSsoProvider: ({ ctx, body }) => testSsoProvider(deps, ctx, body),
  adminCreateSsoDomainMapping: ({ ctx, params, body }) => createSsoDomainMapping(deps, ctx, { providerId: params.pid, body }),
  adminListSsoDomainMappings: ({ ctx, params, query }) => listSsoDomainMappings(deps, ctx, { providerId: params.pid, query }),
  adminUpdateSsoDomainMapping: ({ ctx, params, body }) =>
    updateSsoDomainMapping(deps, ctx, { providerId: params.pid, mappingId: params.mid, body }),
  adminDeleteSsoDomainMapping: ({ ctx, params }) => deleteSsoDomainMapping(deps, ctx, { providerId: params.pid, mappingId: params.mid }),
  adminPreviewSsoDomainMapping: ({ ctx, body }) => previewSsoDomainMapping(deps, ctx, body),
});
