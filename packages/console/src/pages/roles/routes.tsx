// The roles area: the built-in and custom roles with their permissions; custom roles for system admins.
import { IconShieldLock } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "roles",
  nav: [{ label: "Roles", to: "/roles", icon: IconShieldLock, order: 520 }],
  routes: [{ path: "/roles", lazy: page(() => import("./RolesPage")) }],
});
