import { AUDIT_EXPORT_MAX_ROWS, type AuditEntry, type ExportAuditQuery } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { EXPORT_FORMATS, exportFilename } from "./audit-export-format";

/** Where an export goes: the headers once (before any byte), then the body in pieces that may wait for the client. */
export interface ExportSink {
  start(head: { contentType: string; filename: string; truncated: boolean }): Promise<void>;
  write(chunk: string): Promise<void>;
}

/**
 * `GET /orgs/:id/audit/export`: the org's entries (the list's filters) as CSV or JSON, newest
 * first, at most AUDIT_EXPORT_MAX_ROWS, streamed batch by batch from a database cursor.
 */
export async function exportOrgAudit(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; query: ExportAuditQuery },
  sink: ExportSink,
): Promise<void> {
  const scope = await requireOrg(deps, ctx, input, "org.audit.export");
  const org = await deps.data.repos.orgs.get(scope);
  if (!org) throw errors.notFound("organization");
  const { format, ...filter } = input.query;
  const shape = EXPORT_FORMATS[format];
  let first = true;
  await deps.data.repos.audit.exportOrg(scope, filter, {
    limit: AUDIT_EXPORT_MAX_ROWS,
    onStart: async (truncated) => {
      await sink.start({ contentType: shape.contentType, filename: exportFilename(org.slug, new Date(deps.now()), format), truncated });
      await sink.write(shape.open);
    },
    onBatch: (entries: AuditEntry[]) => {
      const text = entries.map((e) => {
        const piece = shape.entry(e, first);
        first = false;
        return piece;
      });
      return sink.write(text.join(""));
    },
  });
  await sink.write(shape.close);
}
