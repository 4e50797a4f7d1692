import { createLogger } from "../core/logger";
import { startConsumers, type StartConsumers } from "./start-consumers";

const logger = createLogger({ service: "kit-test", level: "silent" });

describe("startConsumers", () => {
  const consumer = (name: string, stopped: string[]) => ({ stop: async () => void stopped.push(name) });

  it("when every group starts, then it returns their consumers in start order, each starter given the deps and logger", async () => {
    const stopped: string[] = [];
    const seen: unknown[] = [];
    const deps = { name: "deps" };
    const a: StartConsumers<typeof deps> = async (d, l) => {
      seen.push(d, l);
      return [consumer("a1", stopped), consumer("a2", stopped)];
    };
    const b: StartConsumers<typeof deps> = async () => [consumer("b1", stopped)];
    const running = await startConsumers(deps, logger, [a, b]);
    await Promise.all(running.map((c) => c.stop()));
    expect(stopped).toEqual(["a1", "a2", "b1"]);
    expect(seen).toEqual([deps, logger]);
  });

  it("when a later group fails to start, then the consumers already running are stopped and the error is thrown", async () => {
    const stopped: string[] = [];
    const failing: StartConsumers<object> = () => Promise.reject(new Error("stream missing"));
    await expect(startConsumers({}, logger, [async () => [consumer("a1", stopped)], failing])).rejects.toMatchObject({
      message: "stream missing",
    });
    expect(stopped).toEqual(["a1"]);
  });
});
