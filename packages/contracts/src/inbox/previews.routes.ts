import { IdParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { PREVIEW_MAX_WAIT_MS, PreviewQuery } from "./previews.schemas";

export const previewsRoutes = defineRoutes({ service: "inbox", tag: "Emails" }, [
  {
    operationId: "getEmailPreview",
    method: "get",
    path: "/emails/{id}/preview",
    auth: "user",
    scope: "team.emails.view",
    summary: "The mail as a reader sees it: a PNG rendered in headless Chromium",
    description: [
      "The mail's HTML part (or its text, set in a plain page) rendered by the renderer at `width` CSS pixels (device",
      "scale 1) in the `light` or `dark` colour scheme (`prefers-color-scheme`), full height up to 10,000 px. Scripts",
      "never run and every network request is refused, except remote images when `images=allowed`, which the renderer",
      "fetches itself under the outbound rules of 6.4. Renders are cached per email and parameters (the",
      "`X-BurnBox-Preview-Cache` header says `hit` or `miss`). 404 for a foreign or unknown email; 400 for other",
      "parameter values; 503 when no renderer answers in time.",
    ].join("\n"),
    request: { params: IdParams, query: PreviewQuery },
    responses: {
      200: { description: "The rendered mail (image/png)" },
      400: errorResponses[400],
      404: errorResponses[404],
      503: { description: "No renderer answered in time" },
    },
    extensions: { "x-burnbox-extension": true },
    holdsUpToMs: PREVIEW_MAX_WAIT_MS,
  },
] as const);
