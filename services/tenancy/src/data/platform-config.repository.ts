import type { SavedMailerConfig, SavedStorageConfig } from "@burnbox/contracts";
import { jsonObject, type Client } from "./prisma";

const MAILER = "mailer";
const STORAGE = "storage";

/** What a row keeps in clear: every field but the secret. */
type MailerFields = Omit<SavedMailerConfig, "password_sealed">;
type StorageFields = Omit<SavedStorageConfig, "secret_key_sealed">;

const str = (v: unknown, fallback = ""): string => (typeof v === "string" ? v : fallback);
const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * The platform's mailer and storage configuration (system admins; not tenant data). The secret is
 * held only sealed (`secret_sealed`), never in the JSON of the other fields.
 */
export class PlatformConfigRepository {
  constructor(private readonly db: Client) {}

  async mailer(): Promise<SavedMailerConfig | null> {
    const row = await this.db.platformConfig.findUnique({ where: { key: MAILER } });
    if (!row) return null;
    const v = jsonObject(row.value);
    return {
      host: str(v.host),
      port: typeof v.port === "number" ? v.port : 587,
      username: str(v.username),
      from: str(v.from),
      tls: v.tls === true,
      password_sealed: row.secretSealed,
    };
  }

  async saveMailer(fields: MailerFields, secretSealed: string | null, updatedBy: string): Promise<void> {
    await this.save(MAILER, { ...fields }, secretSealed, updatedBy);
  }

  /** Removes the saved mailer: identity goes back to its configured one (`mail.*`). */
  async clearMailer(): Promise<void> {
    await this.db.platformConfig.deleteMany({ where: { key: MAILER } });
  }

  async storage(): Promise<SavedStorageConfig | null> {
    const row = await this.db.platformConfig.findUnique({ where: { key: STORAGE } });
    if (!row) return null;
    const v = jsonObject(row.value);
    return {
      provider: v.provider === "s3" ? "s3" : "local",
      local_path: strOrNull(v.local_path),
      endpoint: strOrNull(v.endpoint),
      bucket: strOrNull(v.bucket),
      region: strOrNull(v.region),
      access_key: strOrNull(v.access_key),
      use_ssl: v.use_ssl === true,
      secret_key_sealed: row.secretSealed,
    };
  }

  async saveStorage(fields: StorageFields, secretSealed: string | null, updatedBy: string): Promise<void> {
    await this.save(STORAGE, { ...fields }, secretSealed, updatedBy);
  }

  private async save(key: string, value: Record<string, string | number | boolean | null>, secretSealed: string | null, updatedBy: string) {
    await this.db.platformConfig.upsert({
      where: { key },
      create: { key, value, secretSealed, updatedBy },
      update: { value, secretSealed, updatedBy },
    });
  }
}
