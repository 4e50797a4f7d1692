import { agentName, describeAgent } from "./user-agent";

// the agents these devices send today (late 2026 builds; the shapes have held for years)
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 19_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Mobile/15E148 Safari/604.1";
const IPHONE_CHROME =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 19_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/142.0.7444.46 Mobile/15E148 Safari/604.1";
const IPAD_MOBILE =
  "Mozilla/5.0 (iPad; CPU OS 19_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Mobile/15E148 Safari/604.1";
// iPadOS's Safari asks for desktop sites by default, with the agent of Safari on a Mac
const IPAD_DESKTOP_CLASS =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Safari/605.1.15";
const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36";
const WINDOWS_EDGE =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.3595.53";
const MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:145.0) Gecko/20100101 Firefox/145.0";
const LINUX_FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0";
const CHROMEOS_CHROME = "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";

describe("a user agent as a name", () => {
  it.each([
    [IPHONE_SAFARI, "Safari on iOS"],
    [IPHONE_CHROME, "Chrome on iOS"],
    [IPAD_MOBILE, "Safari on iPadOS"],
    [IPAD_DESKTOP_CLASS, "Safari on macOS"],
    [ANDROID_CHROME, "Chrome on Android"],
    [WINDOWS_EDGE, "Edge on Windows"],
    [MAC_FIREFOX, "Firefox on macOS"],
    [LINUX_FIREFOX, "Firefox on Linux"],
    [CHROMEOS_CHROME, "Chrome on ChromeOS"],
  ])("when the agent is %p, then it reads %p (in the sessions lists too)", (ua, name) => {
    expect(agentName(ua)).toBe(name);
    expect(describeAgent(ua)).toBe(name);
  });

  it("when an iPhone or iPad says 'like Mac OS X', then it is not read as macOS", () => {
    expect(agentName(IPHONE_SAFARI)).not.toMatch(/macOS/);
    expect(agentName(IPAD_MOBILE)).not.toMatch(/macOS/);
  });

  it("when the browser is unknown, then the name is the caller's (none given: null), with the system when known", () => {
    expect(agentName("BurnBoxCLI/1.4 (Linux x86_64)")).toBeNull();
    expect(agentName("BurnBoxCLI/1.4 (Linux x86_64)", "BurnBoxCLI")).toBe("BurnBoxCLI on Linux");
    expect(describeAgent("BurnBoxCLI/1.4 (Linux x86_64)")).toBe("BurnBoxCLI on Linux");
    expect(describeAgent("")).toBe("Unknown device");
    expect(describeAgent("curl/8.5.0")).toBe("curl");
  });
});
