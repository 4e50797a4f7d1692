import { PlatformConfigChangedData } from "../tenancy/platform-config.events";
import { envelope } from "../messaging/envelope";

/** Identity: the platform settings changed. */
export const PlatformEventType = {
  platformSettingsChanged: "platform.settings_changed",
} as const;

export const PlatformSettingsChangedEvent = envelope(PlatformEventType.platformSettingsChanged, PlatformConfigChangedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const platformEvents = [PlatformSettingsChangedEvent] as const;
