import { webhookStats } from "./webhook-stats";

describe("webhook stats from the log figures", () => {
  it("when there is no attempt, then the rate and the mean are 0, not NaN", () => {
    expect(webhookStats({ attempts: 0, succeeded: 0, avgResponseTimeMs: null, lastAttemptAt: null })).toMatchObject({
      success_rate: 0,
      avg_response_time_ms: 0,
      last_delivery_at: null,
    });
  });

  it("when 2 of 3 attempts failed, then the rate is a percentage to 2 decimals and the mean is rounded", () => {
    const last = new Date("2026-01-02T03:04:08.000Z");
    expect(webhookStats({ attempts: 3, succeeded: 1, avgResponseTimeMs: 133.67, lastAttemptAt: last })).toEqual({
      total_deliveries: 3,
      success_count: 1,
      failure_count: 2,
      success_rate: 33.33,
      avg_response_time_ms: 134,
      last_delivery_at: "2026-01-02T03:04:08.000Z",
    });
  });

  it("when 2 of 3 attempts succeeded, then the rate rounds half up to 66.67", () => {
    expect(webhookStats({ attempts: 3, succeeded: 2, avgResponseTimeMs: 10.5, lastAttemptAt: null })).toMatchObject({
      success_rate: 66.67,
      avg_response_time_ms: 11,
    });
  });
});
