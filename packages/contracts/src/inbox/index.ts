import { demoRoutes } from "./demo.routes";
import { emailsRoutes } from "./emails.routes";
import { inboxesRoutes } from "./inboxes.routes";
import { smtpBehaviourRoutes } from "./smtp-behaviour.routes";
import { snapshotsRoutes } from "./snapshots.routes";
import { previewsRoutes } from "./previews.routes";
import { outboundRoutes } from "./outbound.routes";

export * from "./inboxes.schemas";
export * from "./emails.schemas";
export * from "./demo.schemas";
export * from "./extracted.schemas";
export * from "./authentication.schemas";
export * from "./spam.schemas";
export * from "./mail-checks.schemas";
export * from "./wait.schemas";
export * from "./smtp-behaviour.schemas";
export * from "./snapshots.schemas";
export * from "./previews.schemas";
export * from "./outbound.schemas";

export const inboxRoutes = [
  ...inboxesRoutes,
  ...emailsRoutes,
  ...demoRoutes,
  ...smtpBehaviourRoutes,
  ...snapshotsRoutes,
  ...previewsRoutes,
  ...outboundRoutes,
] as const;

/** Everything the inbox service serves. */
export const inboxServiceRoutes = inboxRoutes;
export * from "./emails.routes";
export * from "./inboxes.routes";
export * from "./demo.routes";
export * from "./smtp-behaviour.routes";
export * from "./snapshots.routes";
export * from "./previews.routes";
export * from "./outbound.routes";
export * from "./demo.rpc";
export * from "./emails.events";
export * from "./inboxes.events";
export * from "./inboxes.rpc";
