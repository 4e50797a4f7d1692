import type { SetupDatastores } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";

/** `host:port[/name]` of a connection URL: never the user name, password or query. */
export function describeUrl(raw: string, defaultPort: number, name?: string): string {
  const first = raw.split(",")[0]?.trim() ?? "";
  try {
    const url = new URL(first.includes("://") ? first : `tcp://${first}`);
    const path = url.pathname.replace(/^\/+/, "").split("/")[0] ?? "";
    const label = name ?? decodeURIComponent(path);
    return `${url.hostname}:${url.port || defaultPort}${label ? `/${label}` : ""}`;
  } catch {
    return "unparseable";
  }
}

/** Where the datastores are (while setup is incomplete): the operator checks the installation found them. */
export async function datastores(deps: TenancyDeps): Promise<SetupDatastores> {
  const storage = await deps.data.repos.platformConfig.storage().catch(() => null);
  const describeStorage = (): string => {
    if (!storage || storage.provider === "local") return "local";
    const endpoint = storage.endpoint ?? "s3.amazonaws.com";
    const secure = storage.use_ssl !== false;
    return describeUrl(
      endpoint.includes("://") ? endpoint : `${secure ? "https" : "http"}://${endpoint}`,
      secure ? 443 : 80,
      storage.bucket ?? "",
    );
  };
  return {
    postgres: describeUrl(deps.config.database.url, 5432),
    redis: describeUrl(deps.config.redis.url, 6379),
    nats: describeUrl(deps.config.nats.url, 4222, deps.config.nats.namespace),
    storage: describeStorage(),
  };
}
