// The inboxes area: the inbox list, one inbox with its live mail, and the mail reader (./mail).
import { IconInbox } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";
import { queryClient, store } from "../../app/boot";
import { holdUntilPainted } from "../../lib/first-paint";
import { prefetchInboxList } from "./api";

export default defineArea({
  id: "inboxes",
  nav: [{ label: "Inboxes", to: "/inboxes", icon: IconInbox, order: 100 }],
  routes: [
    {
      path: "/inboxes",
      // the list goes out beside the page's chunk and the session's /auth/me (a loader that never waits);
      // on a cold load (the session still starting, so the shell has not rendered yet) the bell, the
      // permissions and the datetime settings wait for its rows
      loader: ({ request }) => {
        if (store.getState().status === "loading") holdUntilPainted();
        return prefetchInboxList(queryClient, store, new URL(request.url));
      },
      lazy: page(() => import("./InboxListPage")),
    },
    { path: "/inboxes/:inboxId", lazy: page(() => import("./InboxPage")) },
    { path: "/inboxes/:inboxId/mail/:emailId", lazy: page(() => import("./mail/ReaderPage")) },
  ],
});
