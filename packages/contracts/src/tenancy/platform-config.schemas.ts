import { z } from "../zod";

const Host = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:[\]_-]+$/, "must be a host name or an IP address");
const Port = z.number().int().min(1).max(65535);
/**
 * A stored secret on write: a new value replaces it, "" or absent keeps it, null clears it. It is
 * stored encrypted (AES-256-GCM, `encryption.key`) and never read back.
 */
const SecretInput = z.string().max(1000).nullable().optional();

/** `GET /admin/config/mailer`: the outbound mailer (invites, resets, verification); the password is write-only. */
export const MailerConfig = z
  .object({
    host: z.string(),
    port: Port,
    username: z.string(),
    from: z.string(),
    tls: z.boolean(),
    has_password: z.boolean(),
  })
  .openapi("MailerConfig");
export type MailerConfig = z.infer<typeof MailerConfig>;

/**
 * `PUT /admin/config/mailer`: a full replace, except that the password follows `SecretInput`. The
 * host and port are held to the outbound rules (400 otherwise; the port one of `mailer.allowed_ports`,
 * 25, 465, 587 and 2525 by default, the message listing them); exactly the configured mailer (what
 * GET shows while none is saved, its host "" when none is configured) hands it back to the configuration.
 */
export const UpdateMailerConfigBody = z
  .object({
    host: Host.or(z.literal("")),
    port: Port,
    username: z.string().max(320).optional(),
    password: SecretInput,
    from: z.string().trim().min(3).max(320),
    tls: z.boolean().default(false),
  })
  .openapi("UpdateMailerConfigRequest");
export type UpdateMailerConfigBody = z.infer<typeof UpdateMailerConfigBody>;

export const StorageProvider = z.enum(["local", "s3"]);
export type StorageProvider = z.infer<typeof StorageProvider>;

/** `GET /admin/config/storage`: where message bytes go; the secret key is write-only. */
export const StorageConfig = z
  .object({
    provider: StorageProvider,
    local_path: z.string().optional(),
    endpoint: z.string().optional(),
    bucket: z.string().optional(),
    region: z.string().optional(),
    access_key: z.string().optional(),
    use_ssl: z.boolean().optional(),
    has_secret_key: z.boolean(),
  })
  .openapi("StorageConfig");
export type StorageConfig = z.infer<typeof StorageConfig>;

/**
 * `PUT /admin/config/storage`: `local` (with `local_path`, absolute; absent = the inbox service's
 * configured path) or `s3` (`bucket` required; `endpoint` as `host:port` or a URL, absent = AWS).
 */
export const UpdateStorageConfigBody = z
  .object({
    provider: StorageProvider,
    local_path: z
      .string()
      .max(1000)
      .regex(/^\/[^\0]*$/, "must be an absolute path")
      .optional(),
    endpoint: z
      .string()
      .trim()
      .max(500)
      .regex(/^(https?:\/\/)?[A-Za-z0-9.[\]:_-]+(:\d{1,5})?\/?$/, "must be host:port or an http(s) URL without a path")
      .optional(),
    bucket: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be an S3 bucket name")
      .optional(),
    region: z
      .string()
      .regex(/^[a-z0-9-]{1,50}$/, "must be a region name")
      .optional(),
    access_key: z.string().max(500).optional(),
    secret_key: SecretInput,
    use_ssl: z.boolean().optional(),
  })
  .refine((b) => b.provider !== "s3" || b.bucket !== undefined, { message: "bucket is required for s3", path: ["bucket"] })
  .openapi("UpdateStorageConfigRequest");
export type UpdateStorageConfigBody = z.infer<typeof UpdateStorageConfigBody>;

/** `POST /admin/infra/test-smtp|test-storage`: the saved configuration tried now. */
export const InfraTestResult = z
  .object({ success: z.boolean(), message: z.string(), response_time_ms: z.number().int().min(0) })
  .openapi("InfraTestResult");
export type InfraTestResult = z.infer<typeof InfraTestResult>;
