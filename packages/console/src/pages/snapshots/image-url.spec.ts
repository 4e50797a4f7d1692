import { parseSnapshotImageUrl } from "./image-url";

const O = "11111111-1111-4111-8111-111111111111";
const T = "22222222-2222-4222-8222-222222222222";
const S = "33333333-3333-4333-8333-333333333333";
const C = "44444444-4444-4444-8444-444444444444";

describe("parseSnapshotImageUrl", () => {
  it("takes a baseline's address apart", () => {
    expect(parseSnapshotImageUrl(`/api/v1/orgs/${O}/teams/${T}/snapshots/${S}/images/baseline/600/light`)).toEqual({
      orgId: O,
      teamId: T,
      snapshotId: S,
      kind: "baseline",
      width: "600",
      scheme: "light",
    });
  });
  it("keeps a comparison's id", () => {
    expect(parseSnapshotImageUrl(`/api/v1/orgs/${O}/teams/${T}/snapshots/${S}/images/diff/375/dark?comparison=${C}`)).toMatchObject({
      kind: "diff",
      width: "375",
      scheme: "dark",
      comparison: C,
    });
  });
  it("refuses any other address", () => {
    expect(parseSnapshotImageUrl("https://evil.example/x.png")).toBeNull();
    expect(parseSnapshotImageUrl(`/api/v1/orgs/${O}/teams/${T}/snapshots/${S}/images/baseline/1280/light`)).toBeNull();
  });
});
