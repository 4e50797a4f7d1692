// The inboxes area: the inbox list, one inbox with its live mail, and the mail reader (src/pages/mail).
import { IconInbox } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "inboxes",
  nav: [{ label: "Inboxes", to: "/inboxes", icon: IconInbox, order: 100 }],
  routes: [
    { path: "/inboxes", lazy: page(() => import("./InboxListPage")) },
    { path: "/inboxes/:inboxId", lazy: page(() => import("./InboxPage")) },
    { path: "/inboxes/:inboxId/mail/:emailId", lazy: page(() => import("../mail/ReaderPage")) },
  ],
});
