import { describeComparison, updatingSnapshots } from "./snapshot-matcher.js";
import type { SnapshotComparison } from "./extensions.js";

const base: SnapshotComparison = {
  id: "c",
  snapshot_id: "s",
  snapshot: "signup",
  email_id: "e",
  match: false,
  max_changed_ratio: 0.001,
  subject: { baseline: "Welcome, [name]", actual: "Welcome, {{name}}", equal: false },
  from: { baseline: "Acme <a@acme.test>", actual: "Acme <a@acme.test>", equal: true },
  text: { equal: false, diff: [{ old_start: 1, old_lines: 1, new_start: 1, new_lines: 1, lines: ["-Hi [name],", "+Hi {{name}},"] }] },
  links: { added: [], removed: [{ url: "https://app.test/help", text: "Help", kind: "other" }], changed: [] },
  visual: [
    {
      width: 600,
      scheme: "dark",
      changed_ratio: 0.0123,
      baseline_url: "/b",
      actual_url: "/a",
      diff_url: "/api/v1/orgs/o/teams/t/snapshots/s/images/diff/600/dark?comparison=c",
    },
    { width: 600, scheme: "light", changed_ratio: 0, baseline_url: "/b", actual_url: "/a", diff_url: "/d2" },
  ],
  created_at: "2026-12-02T00:00:00.000Z",
};

describe("toMatchMailSnapshot's message and update flag", () => {
  it("when a comparison fails, then the message names the subject, the hunk, the removed link and the changed picture only", () => {
    expect(describeComparison(base, "http://bb.test/api/v1")).toBe(
      [
        "subject:",
        "    - Welcome, [name]",
        "    + Welcome, {{name}}",
        "text:",
        "    @@ -1,1 +1,1 @@",
        "    -Hi [name],",
        "    +Hi {{name}},",
        "links:",
        "    - https://app.test/help (Help)",
        "pictures (more than 0.10% of pixels changed):",
        "    600px dark: 1.23% changed, diff http://bb.test/api/v1/orgs/o/teams/t/snapshots/s/images/diff/600/dark?comparison=c",
      ].join("\n"),
    );
    expect(describeComparison(base)).toContain("diff /api/v1/orgs/o/teams/t/snapshots/s/images/diff/600/dark?comparison=c");
  });

  it("when BURNBOX_UPDATE_SNAPSHOTS is 1 or jest runs with -u, then baselines are rewritten; otherwise not", () => {
    expect(updatingSnapshots({}, { BURNBOX_UPDATE_SNAPSHOTS: "1" })).toBe(true);
    expect(updatingSnapshots({ snapshotState: { _updateSnapshot: "all" } }, {})).toBe(true);
    expect(updatingSnapshots({ snapshotState: { _updateSnapshot: "new" } }, {})).toBe(false);
    expect(updatingSnapshots({}, {})).toBe(false);
  });
});
