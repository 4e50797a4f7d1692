// The inboxes area (console-inbox builds it out): inboxes and the mail reader.
import { IconInbox } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "inboxes",
  nav: [{ label: "Inboxes", to: "/inboxes", icon: IconInbox, order: 100 }],
  routes: [{ path: "/inboxes", lazy: page(() => import("./InboxesPage")) }],
});
