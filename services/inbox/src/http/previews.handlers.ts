import { PREVIEW_CACHE_HEADER, type previewsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../domain/deps";
import { getEmailPreview } from "../domain/emails/get-email-preview.use-case";

export const previewsHandlers = (deps: InboxDeps): Handlers<typeof previewsRoutes> => ({
  getEmailPreview: async ({ ctx, params, query, http }) => {
    const preview = await getEmailPreview(deps, ctx, { emailId: params.id, query });
    http.res.status(200);
    http.res.setHeader("Content-Type", "image/png");
    http.res.setHeader("Cache-Control", "private, max-age=300");
    http.res.setHeader("X-Content-Type-Options", "nosniff");
    http.res.setHeader(PREVIEW_CACHE_HEADER, preview.cached ? "hit" : "miss");
    http.res.end(preview.png);
  },
});
