// The notifications area: the list page; the header's bell is Bell.tsx (the shell renders it).
import { IconBell } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "notifications",
  nav: [{ label: "Notifications", to: "/notifications", icon: IconBell, order: 300 }],
  routes: [{ path: "/notifications", lazy: page(() => import("./NotificationsPage")) }],
});
