// The team tools area (console-team builds it out): API keys and webhooks.
import { IconKey } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "team",
  nav: [{ label: "API keys", to: "/api-keys", icon: IconKey, order: 200 }],
  routes: [{ path: "/api-keys", lazy: page(() => import("./ApiKeysPage")) }],
});
