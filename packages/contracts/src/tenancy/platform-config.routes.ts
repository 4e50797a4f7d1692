import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { InfraTestResult, MailerConfig, StorageConfig, UpdateMailerConfigBody, UpdateStorageConfigBody } from "./platform-config.schemas";

/** The platform's mailer and storage (system admins, never an API key): saved here, applied by identity and inbox at once. */
export const platformConfigRoutes = defineRoutes({ service: "tenancy", tag: "Admin" }, [
  {
    operationId: "adminGetMailerConfig",
    method: "get",
    path: "/admin/config/mailer",
    auth: "system_admin",
    summary: "The outbound mailer's configuration (the password is never returned: has_password)",
    responses: { 200: { description: "Mailer", schema: MailerConfig }, 403: errorResponses[403] },
  },
  {
    operationId: "adminUpdateMailerConfig",
    method: "put",
    path: "/admin/config/mailer",
    auth: "system_admin",
    summary: 'Replace the mailer configuration (password: "" or absent keeps, null clears); used at once by every replica',
    request: { body: UpdateMailerConfigBody },
    responses: { 200: { description: "Mailer", schema: MailerConfig }, 400: errorResponses[400], 403: errorResponses[403] },
  },
  {
    operationId: "adminGetStorageConfig",
    method: "get",
    path: "/admin/config/storage",
    auth: "system_admin",
    summary: "Where message bytes are stored (the secret key is never returned: has_secret_key)",
    responses: { 200: { description: "Storage", schema: StorageConfig }, 403: errorResponses[403] },
  },
  {
    operationId: "adminUpdateStorageConfig",
    method: "put",
    path: "/admin/config/storage",
    auth: "system_admin",
    summary: "Replace the storage configuration after a connection check (400 when it fails); used at once by every replica",
    request: { body: UpdateStorageConfigBody },
    responses: { 200: { description: "Storage", schema: StorageConfig }, 400: errorResponses[400], 403: errorResponses[403] },
  },
  {
    operationId: "adminTestSmtp",
    method: "post",
    path: "/admin/infra/test-smtp",
    auth: "system_admin",
    summary: "Try the saved mailer configuration (success false when it fails)",
    responses: { 200: { description: "Result", schema: InfraTestResult }, 403: errorResponses[403] },
  },
  {
    operationId: "adminTestStorage",
    method: "post",
    path: "/admin/infra/test-storage",
    auth: "system_admin",
    summary: "Try the saved storage configuration (success false when it fails)",
    responses: { 200: { description: "Result", schema: InfraTestResult }, 403: errorResponses[403] },
  },
] as const);
