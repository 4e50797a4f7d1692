import { errors } from "@burnbox/service-kit";
import type { InboxAccess } from "../../data/inbox.repository";
import type { InboxDeps } from "../deps";
import { isDemoInbox } from "./demo-rules";

/** Every `/try` operation but the status is a 404 while the demo is off. */
export function assertDemoEnabled(deps: InboxDeps): void {
  if (!deps.config.demo.enabled) throw errors.notFound("demo");
}

/** A demo inbox located by id; any other inbox (or none) is the same 404. */
export function demoInbox(inbox: InboxAccess | null): InboxAccess {
  if (!inbox || !isDemoInbox(inbox)) throw errors.notFound("inbox");
  return inbox;
}
