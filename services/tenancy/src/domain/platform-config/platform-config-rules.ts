import type { MailerConfig, SavedMailerConfig, SavedStorageConfig, StorageConfig } from "@burnbox/contracts";

/** What a PUT does to a stored secret: a new value replaces it, "" or absent keeps it, null clears it. */
export type SecretChange = { kind: "keep" } | { kind: "clear" } | { kind: "set"; value: string };

export function secretChange(input: string | null | undefined): SecretChange {
  if (input === undefined || input === "") return { kind: "keep" };
  if (input === null) return { kind: "clear" };
  return { kind: "set", value: input };
}

/** The sealed secret after a change (`seal` refuses when no key is configured: a 400, never clear text). */
export function nextSealedSecret(stored: string | null, change: SecretChange, seal: (plain: string) => string): string | null {
  switch (change.kind) {
    case "keep":
      return stored;
    case "clear":
      return null;
    case "set":
      return seal(change.value);
  }
}

/** The mailer as an admin reads it: never the password, only whether one is stored. */
export function mailerView(saved: SavedMailerConfig | null): MailerConfig {
  if (!saved) return { host: "", port: 587, username: "", from: "", tls: false, has_password: false };
  return {
    host: saved.host,
    port: saved.port,
    username: saved.username,
    from: saved.from,
    tls: saved.tls,
    has_password: saved.password_sealed !== null,
  };
}

/** The storage as an admin reads it: never the secret key. Unsaved: local, at the inbox service's configured path. */
export function storageView(saved: SavedStorageConfig | null): StorageConfig {
  if (!saved) return { provider: "local", has_secret_key: false };
  const optional = <K extends string>(key: K, v: string | null) => (v === null ? {} : ({ [key]: v } as Record<K, string>));
  if (saved.provider === "local") return { provider: "local", ...optional("local_path", saved.local_path), has_secret_key: false };
  return {
    provider: "s3",
    ...optional("endpoint", saved.endpoint),
    ...optional("bucket", saved.bucket),
    ...optional("region", saved.region),
    ...optional("access_key", saved.access_key),
    use_ssl: saved.use_ssl,
    has_secret_key: saved.secret_key_sealed !== null,
  };
}
