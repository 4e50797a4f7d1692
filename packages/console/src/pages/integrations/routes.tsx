// The integrations area: API keys and webhooks of the team chosen in the header.
import { IconKey, IconWebhook } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "integrations",
  nav: [
    { label: "API keys", to: "/api-keys", icon: IconKey, order: 200 },
    { label: "Webhooks", to: "/webhooks", icon: IconWebhook, order: 210 },
  ],
  routes: [
    { path: "/api-keys", lazy: page(() => import("./ApiKeysPage")) },
    { path: "/webhooks", lazy: page(() => import("./WebhooksPage")) },
    { path: "/webhooks/:webhookId", lazy: page(() => import("./WebhookPage")) },
  ],
});
