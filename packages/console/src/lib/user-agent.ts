// A user agent as a short name ("Safari on iOS"), for the sessions lists and the audit log.

/** The browser a user agent names, or undefined; the iOS builds of Chrome, Firefox and Edge first (they also say "Safari"). */
function browserOf(ua: string): string | undefined {
  if (/Edg(A|iOS)?\//.test(ua)) return "Edge";
  if (/(Firefox|FxiOS)\//.test(ua)) return "Firefox";
  if (/(Chrom(e|ium)|CriOS)\//.test(ua)) return "Chrome";
  if (/Safari\//.test(ua)) return "Safari";
  if (/^curl\//.test(ua)) return "curl";
  return undefined;
}

/**
 * The system a user agent names, or undefined. iPhone and iPad are checked before macOS: their
 * agents say "like Mac OS X". An iPad asking for desktop sites (iPadOS's default in Safari) sends
 * the very agent of Safari on a Mac, so it reads "macOS": nothing in the string tells them apart.
 * Android before Linux, which its agent also names; ChromeOS says "CrOS".
 */
function systemOf(ua: string): string | undefined {
  if (/Windows/.test(ua)) return "Windows";
  if (/iPhone|iPod/.test(ua)) return "iOS";
  if (/iPad/.test(ua)) return "iPadOS";
  if (/Mac OS X|Macintosh/.test(ua)) return "macOS";
  if (/Android/.test(ua)) return "Android";
  if (/CrOS/.test(ua)) return "ChromeOS";
  if (/Linux/.test(ua)) return "Linux";
  return undefined;
}

/**
 * "Chrome on Android", "Safari on iOS", "curl": the browser and its system. A browser this does not
 * know is `unknownBrowser` (still with its system), or, without one, null: the caller then says
 * the agent its own way (the whole string, cut).
 */
export function agentName(ua: string, unknownBrowser?: string): string | null {
  const browser = browserOf(ua) ?? unknownBrowser;
  if (!browser) return null;
  const system = systemOf(ua);
  return system ? `${browser} on ${system}` : browser;
}

/** The sessions lists' name of a device: the browser and system, else the agent's first word. */
export function describeAgent(ua: string): string {
  if (!ua) return "Unknown device";
  return agentName(ua, ua.split(/[ /]/)[0] || "Unknown") ?? "Unknown";
}
