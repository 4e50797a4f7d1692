// The entry: small on purpose. The boot starts the session (a refresh from the cookie) and asks
// for the setup status; the rest of the console (whose chunks index.html already preloads) runs
// once the refresh is on the wire: its evaluation is one long task that would hold back the
// tabs' lock, and with it the refresh. Never more than 200 ms (another tab holding the lock).
import { store } from "./app/boot";

const atMost = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
void Promise.race([store.firstRefreshSent, atMost(200)]).then(() => import("./app/start"));
