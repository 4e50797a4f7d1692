import { tracingRequested } from "./telemetry";

describe("tracingRequested", () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" }, true],
    [{ OTEL_TRACES_EXPORTER: "console" }, true],
    [{ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, false],
    [{ OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, false],
    [{ OTEL_SERVICE_NAME: "inbox" }, false],
  ])("when the environment is %j, then tracing is requested: %s", (env, expected) => {
    expect(tracingRequested(env)).toBe(expected);
  });
});
