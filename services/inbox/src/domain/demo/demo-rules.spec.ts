import { demoWindow, isDemoInbox, PLATFORM_ID } from "./demo-rules";

describe("demo rules", () => {
  it("when a time is inside an hour, then the window starts on that hour and the retry is the seconds to the next", () => {
    const at = Date.UTC(2026, 0, 1, 10, 59, 30, 200);
    expect(demoWindow(at)).toEqual({ start: new Date(Date.UTC(2026, 0, 1, 10)), retryAfterSeconds: 30 });
  });

  it("when a time is exactly on the hour, then the window starts there and the retry is a full hour", () => {
    const at = Date.UTC(2026, 0, 1, 11);
    expect(demoWindow(at)).toEqual({ start: new Date(at), retryAfterSeconds: 3600 });
  });

  it("when the next hour is a few milliseconds away, then the retry is still at least one second", () => {
    expect(demoWindow(Date.UTC(2026, 0, 1, 11, 59, 59, 999)).retryAfterSeconds).toBe(1);
  });

  it("when an inbox is owned by the platform, then it is a demo inbox, and a team's inbox is not", () => {
    expect(isDemoInbox({ org_id: PLATFORM_ID, team_id: PLATFORM_ID })).toBe(true);
    expect(isDemoInbox({ org_id: "7d3e2f0a-1b2c-4d5e-8f90-123456789abc", team_id: PLATFORM_ID })).toBe(false);
  });
});
