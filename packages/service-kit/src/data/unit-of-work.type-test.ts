/**
 * Compile-time checks of the two repository sets (`tsc` runs them; nothing executes): a hot
 * repository (pool-only) cannot be placed in `repos`, and `write()` hands its change `repos` only.
 */
import type { OutboxRelay } from "../messaging/outbox";
import { createUnitOfWork, HotRepository, type OutboxWriter } from "./unit-of-work";

class PoolOnly extends HotRepository {
  read(): number {
    return 1;
  }
}
class Bound {
  read(): number {
    return 2;
  }
}
declare const tx: OutboxWriter;
declare const relay: OutboxRelay;

const data = createUnitOfWork({
  client: tx,
  transaction: (fn: (t: OutboxWriter) => Promise<unknown>) => fn(tx) as Promise<never>,
  repositories: () => ({ bound: new Bound() }),
  hot: { poolOnly: new PoolOnly() },
  relay,
  namespace: "ns",
});
data.hot.poolOnly.read();
void data.write(async (repos) => {
  repos.bound.read();
  // @ts-expect-error the change gets the transaction-bound set only
  return repos.poolOnly;
});

createUnitOfWork({
  client: tx,
  transaction: (fn: (t: OutboxWriter) => Promise<unknown>) => fn(tx) as Promise<never>,
  // @ts-expect-error a pool-only repository cannot join the transaction-bound set
  repositories: () => ({ poolOnly: new PoolOnly() }),
  relay,
  namespace: "ns",
});
