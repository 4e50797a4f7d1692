import { RpcName, type AdminStats } from "@burnbox/contracts";
import { rpcRequest, RpcError, type NatsConnection } from "@burnbox/service-kit/messaging";
import { errors, type Clock } from "@burnbox/service-kit/runtime";

/** Every admin socket of a replica sits under this one key of the admin-stats hub. */
export const ADMIN_STATS_KEY = "admin";

/** The platform figures of spec 2.7 as this replica last fetched them, shared by all its admin sockets. */
export class AdminStatsFeed {
  private last: { data: AdminStats; at: number } | null = null;
  private inFlight: Promise<AdminStats> | null = null;
  /** How many fetches this replica made (tests and metrics read it). */
  fetches = 0;

  constructor(
    private readonly fetch: () => Promise<AdminStats>,
    private readonly now: Clock = Date.now,
  ) {}

  /**
   * The last figures when younger than `maxAgeMs`, else one fetch that every caller waiting at the
   * same time shares: sockets opening together never cost a fetch each.
   */
  current(maxAgeMs: number): Promise<AdminStats> {
    if (this.last && this.now() - this.last.at < maxAgeMs) return Promise.resolve(this.last.data);
    if (!this.inFlight) {
      this.fetches++;
      this.inFlight = this.fetch()
        .then((data) => {
          this.last = { data, at: this.now() };
          return data;
        })
        .finally(() => {
          this.inFlight = null;
        });
    }
    return this.inFlight;
  }
}

/** Tenancy computes the figures (it keeps the counters); a silent tenancy is a 503 for the opening socket. */
export const fetchAdminStatsOverNats = (nc: NatsConnection, namespace: string) => async (): Promise<AdminStats> => {
  try {
    return await rpcRequest(nc, namespace, RpcName.adminStats, {});
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("tenancy service unavailable");
    throw err;
  }
};
