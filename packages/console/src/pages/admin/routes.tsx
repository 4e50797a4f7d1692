// The admin console: the platform's statistics and health, users, orgs, settings, mailer and
// storage, SSO providers. System admins only: the entries are hidden from everyone else, and each
// page refuses a non-admin itself (AdminGate), since a typed URL bypasses the navigation.
import { IconAdjustments, IconBuildingSkyscraper, IconGauge, IconKey, IconUsers } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "admin",
  nav: [
    { label: "Platform", to: "/admin", icon: IconGauge, order: 800, audience: "system-admin" },
    { label: "Users", to: "/admin/users", icon: IconUsers, order: 810, audience: "system-admin" },
    { label: "All organizations", to: "/admin/orgs", icon: IconBuildingSkyscraper, order: 820, audience: "system-admin" },
    { label: "Platform settings", to: "/admin/settings", icon: IconAdjustments, order: 830, audience: "system-admin" },
    { label: "SSO providers", to: "/admin/sso", icon: IconKey, order: 840, audience: "system-admin" },
  ],
  routes: [
    { path: "/admin", lazy: page(() => import("./OverviewPage")) },
    { path: "/admin/users", lazy: page(() => import("./UsersPage")) },
    { path: "/admin/orgs", lazy: page(() => import("./OrgsPage")) },
    { path: "/admin/settings", lazy: page(() => import("./SettingsPage")) },
    { path: "/admin/sso", lazy: page(() => import("./SsoProvidersPage")) },
    { path: "/admin/sso/:pid", lazy: page(() => import("./SsoProviderPage")) },
  ],
});
