import { errors } from "@burnbox/service-kit/runtime";
import type { InboxAccess } from "../../data/inbox.repository";
import type { InboxDeps } from "../deps";
import { isDemoInbox } from "./demo-rules";

/** Whether the demo is on: the platform setting (PUT /admin/platform `demo_enabled`) when set, else `demo.enabled`. */
export const demoEnabled = (deps: InboxDeps): boolean => deps.platform.current().demo_enabled ?? deps.config.demo.enabled;

/** Every `/try` operation but the status is a 404 while the demo is off. */
export function assertDemoEnabled(deps: InboxDeps): void {
  if (!demoEnabled(deps)) throw errors.notFound("demo");
}

/** A demo inbox located by id; any other inbox (or none) is the same 404. */
export function demoInbox(inbox: InboxAccess | null): InboxAccess {
  if (!inbox || !isDemoInbox(inbox)) throw errors.notFound("inbox");
  return inbox;
}
