// The first-run setup (spec: Setup). The app's SetupGate sends every visitor here while
// `GET /setup/status` says incomplete, and away from here once it is complete.
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "setup",
  publicRoutes: [{ path: "/setup", lazy: page(() => import("./SetupPage")) }],
});
