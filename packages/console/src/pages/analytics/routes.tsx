// The analytics area: an org's and a team's figures as charts (emails per day, per domain, insights).
// The charting library (recharts) is imported only by this area's page, so it loads with it.
import { IconChartBar } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "analytics",
  nav: [{ label: "Analytics", to: "/analytics", icon: IconChartBar, order: 650 }],
  routes: [{ path: "/analytics", lazy: page(() => import("./AnalyticsPage")) }],
});
