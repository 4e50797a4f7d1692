import type { Response } from "express";
import type { adminAuditRoutes, auditRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { exportOrgAudit, type ExportSink } from "../domain/audit/export-org-audit.use-case";
import { listAllAudit } from "../domain/audit/list-all-audit.use-case";
import { listOrgAudit } from "../domain/audit/list-org-audit.use-case";

/** The export written straight to the response, waiting for the client whenever its buffer is full. */
function responseSink(res: Response): ExportSink {
  return {
    start: ({ contentType, filename, truncated }) => {
      res.status(200);
      res.setHeader("Content-Type", contentType);
      res.setHeader("Content-Disposition", `attachment; filename="${filename}"`);
      res.setHeader("Cache-Control", "private, no-store");
      res.setHeader("X-Content-Type-Options", "nosniff");
      if (truncated) res.setHeader("X-Truncated", "true");
      return Promise.resolve();
    },
    write: async (chunk) => {
      if (res.destroyed) throw new Error("client went away during the export");
      if (chunk === "" || res.write(chunk)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
      if (res.destroyed) throw new Error("client went away during the export");
    },
  };
}

export const auditHandlers = (deps: TenancyDeps): Handlers<typeof auditRoutes> => ({
  listOrgAudit: ({ ctx, params, query }) => listOrgAudit(deps, ctx, { orgId: params.orgId, query }),
  exportOrgAudit: async ({ ctx, params, query, http }) => {
    try {
      await exportOrgAudit(deps, ctx, { orgId: params.orgId, query }, responseSink(http.res));
      http.res.end();
    } catch (err) {
      // before the first byte the envelope handler answers; after it only dropping the connection tells the client
      if (!http.res.headersSent) throw err;
      http.res.destroy();
    }
  },
});

export const adminAuditHandlers = (deps: TenancyDeps): Handlers<typeof adminAuditRoutes> => ({
  adminListAudit: ({ ctx, query }) => listAllAudit(deps, ctx, query),
});
