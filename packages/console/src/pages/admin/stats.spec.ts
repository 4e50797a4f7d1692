import { formatBytes, formatUptime, parseStatsFrame } from "./stats";

const data = { total_emails: 3, active_inboxes: 2, total_domains: 1, total_users: 4, total_teams: 1, storage_used_bytes: 2048 };

describe("the admin statistics stream's rules", () => {
  it("when a frame is admin.stats with the 2.7 fields, then its data is read; anything else is dropped", () => {
    expect(parseStatsFrame(JSON.stringify({ type: "admin.stats", data }))).toEqual(data);
    expect(parseStatsFrame(JSON.stringify({ type: "email.received", data }))).toBeNull();
    expect(parseStatsFrame(JSON.stringify({ type: "admin.stats", data: { ...data, total_users: "4" } }))).toBeNull();
    expect(parseStatsFrame("not json")).toBeNull();
    expect(parseStatsFrame(new ArrayBuffer(2))).toBeNull();
  });

  it("when bytes and seconds are shown, then they read as people write them", () => {
    expect([0, 512, 1536, 20 * 1024 * 1024, 3.2 * 1024 ** 3].map(formatBytes)).toEqual(["0 B", "512 B", "1.5 KB", "20 MB", "3.2 GB"]);
    expect([45, 720, 12_000, 187_200].map(formatUptime)).toEqual(["45 s", "12 min", "3 h 20 min", "2 d 4 h"]);
  });
});
