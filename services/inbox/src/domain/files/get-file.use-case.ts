import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";
import { downloadOf, type Download } from "./download";

/** A stored file by its key, to those who may read its email; 404 for every other key and caller alike. */
export async function getFile(deps: InboxDeps, ctx: RequestCtx, input: { key: string }): Promise<Download> {
  const located = await deps.data.repos.emails.locateFile(input.key);
  if (!located) throw errors.notFound("file");
  await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "file");
  return downloadOf(deps, located.file);
}
