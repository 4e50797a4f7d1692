// The teams area: the org's teams, their members, domain assignments and settings.
import { IconUsersGroup } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "teams",
  nav: [{ label: "Teams", to: "/teams", icon: IconUsersGroup, order: 500 }],
  routes: [
    { path: "/teams", lazy: page(() => import("./TeamsPage")) },
    { path: "/teams/:teamId", lazy: page(() => import("./TeamPage")) },
  ],
});
