// The domains area: the org's mail domains, their DNS verification, bulk checks and deletion.
import { IconWorldWww } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "domains",
  nav: [{ label: "Domains", to: "/domains", icon: IconWorldWww, order: 510 }],
  routes: [
    { path: "/domains", lazy: page(() => import("./DomainsPage")) },
    { path: "/domains/:domainId", lazy: page(() => import("./DomainPage")) },
  ],
});
