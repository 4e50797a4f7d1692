import type { platformConfigRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { getMailerConfig } from "../domain/platform-config/get-mailer-config.use-case";
import { getStorageConfig } from "../domain/platform-config/get-storage-config.use-case";
import { testSmtp } from "../domain/platform-config/test-smtp.use-case";
import { testStorage } from "../domain/platform-config/test-storage.use-case";
import { updateMailerConfig } from "../domain/platform-config/update-mailer-config.use-case";
import { updateStorageConfig } from "../domain/platform-config/update-storage-config.use-case";

export const platformConfigHandlers = (deps: TenancyDeps): Handlers<typeof platformConfigRoutes> => ({
  adminGetMailerConfig: ({ ctx }) => getMailerConfig(deps, ctx),
  adminUpdateMailerConfig: ({ ctx, body }) => updateMailerConfig(deps, ctx, body),
  adminGetStorageConfig: ({ ctx }) => getStorageConfig(deps, ctx),
  adminUpdateStorageConfig: ({ ctx, body }) => updateStorageConfig(deps, ctx, body),
  adminTestSmtp: ({ ctx }) => testSmtp(deps, ctx),
  adminTestStorage: ({ ctx }) => testStorage(deps, ctx),
});
