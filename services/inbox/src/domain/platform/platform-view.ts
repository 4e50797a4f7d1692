/**
 * The platform settings the inbox service applies (PUT /admin/platform); null = its own
 * configuration decides. (The inbox TTLs reach it resolved by tenancy, whose top tier they are.)
 */
export interface InboxPlatform {
  demo_enabled: boolean | null;
}

export const NO_PLATFORM_SETTINGS: InboxPlatform = { demo_enabled: null };

/** The platform settings as last loaded (kept current by the change event, on every replica). */
export class PlatformView {
  private value: InboxPlatform = NO_PLATFORM_SETTINGS;

  current(): InboxPlatform {
    return this.value;
  }

  set(value: InboxPlatform): void {
    this.value = value;
  }
}
