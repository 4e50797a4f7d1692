// The snapshots area: the mail baselines of the team chosen in the header (extensions section 12).
import { IconPhotoScan } from "@tabler/icons-react";
import { defineArea, page } from "../../app/area";

export default defineArea({
  id: "snapshots",
  nav: [{ label: "Snapshots", to: "/snapshots", icon: IconPhotoScan, order: 220 }],
  routes: [
    { path: "/snapshots", lazy: page(() => import("./SnapshotsPage")) },
    { path: "/snapshots/:snapshotId", lazy: page(() => import("./SnapshotPage")) },
  ],
});
