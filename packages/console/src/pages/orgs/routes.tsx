// Organizations (spec: Orgs, Org settings, Members, Invites): the list with create and switch, and
// each org's settings, members and invites.
import { IconBuilding } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "orgs",
  nav: [{ label: "Organizations", to: "/orgs", icon: IconBuilding, order: 400 }],
  routes: [
    { path: "/orgs", lazy: page(() => import("./OrgsPage")) },
    { path: "/orgs/:orgId/settings", lazy: page(() => import("./SettingsPage")) },
    { path: "/orgs/:orgId/members", lazy: page(() => import("./MembersPage")) },
    { path: "/orgs/:orgId/invites", lazy: page(() => import("./InvitesPage")) },
  ],
});
