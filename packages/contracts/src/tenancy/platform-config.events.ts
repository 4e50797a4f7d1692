import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Tenancy: the saved platform mailer or storage changed. */
export const PlatformConfigEventType = {
  mailerConfigChanged: "platform.mailer_config_changed",
  storageConfigChanged: "platform.storage_config_changed",
} as const;

/**
 * Platform configuration changed (tenancy: mailer or storage; identity: platform settings). The
 * event names what changed and carries no value, never a secret: every replica of a service that
 * uses it fetches the current configuration over an RPC (secrets sealed) and applies it.
 */
export const PlatformConfigChangedData = z.object({});

export const MailerConfigChangedEvent = envelope(PlatformConfigEventType.mailerConfigChanged, PlatformConfigChangedData);
export const StorageConfigChangedEvent = envelope(PlatformConfigEventType.storageConfigChanged, PlatformConfigChangedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const platformConfigEvents = [MailerConfigChangedEvent, StorageConfigChangedEvent] as const;
