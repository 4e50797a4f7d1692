// The auth area's server state: sign-in, registration, password reset, email verification, invites.
import type { components } from "@burnbox/sdk";

export type SessionEntry = components["schemas"]["SessionEntry"];
export type SessionLimitConflict = components["schemas"]["SessionLimitConflict"];
