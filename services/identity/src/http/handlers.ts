import type { identityServiceRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit";

/**
 * The handlers of some of identity's operations. The contracts export only the API-key routes of
 * identity by resource, so the other resources name their operation ids; `bindRoutes` in app.ts
 * still checks the whole service against `identityServiceRoutes`.
 */
export type IdentityHandlers<K extends keyof Handlers<typeof identityServiceRoutes>> = Pick<Handlers<typeof identityServiceRoutes>, K>;
