// The audit area: the org's audit log (and the platform's for a system admin), with filters and export.
import { IconListSearch } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "audit",
  nav: [{ label: "Audit log", to: "/audit", icon: IconListSearch, order: 700, permission: "org.audit.view" }],
  routes: [{ path: "/audit", lazy: page(() => import("./AuditPage")) }],
});
