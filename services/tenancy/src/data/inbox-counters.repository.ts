import { claimsOf, type Claim, groupedStatement, HotRepository, type PoolSql } from "@burnbox/service-kit/data";

/** One inbox opened (+1) or gone (-1) to count on its team, its domain and the team's assignment of that domain. */
export interface InboxMove {
  claim: Claim;
  teamId: string;
  /** The domain part of the inbox's address, lower-cased as domains are stored. */
  domainName: string;
}

/** At most this many events are counted by one statement. */
const MAX_MOVES_PER_STATEMENT = 256;

/**
 * The teams', domains' and assignments' inbox counters, moved by the inbox service's events.
 * Pool-only (`data.hot.inboxCounters`): the claim of each event and every counter it moves are one
 * statement, and the events that arrive while a statement is in flight go together in the next,
 * so a cleanup expiring ten thousand inboxes of one team moves that team's row a few hundred times,
 * each for the length of a statement, not ten thousand Prisma transactions queued on its lock.
 * Openings and closings go in separate statements: n closings of a counter at k leave max(0, k - n),
 * exactly what n single decrements that never go below zero leave, which a mixed sum would not.
 */
export class InboxCounters extends HotRepository {
  private readonly opened: (move: InboxMove) => Promise<boolean>;
  private readonly gone: (move: InboxMove) => Promise<boolean>;

  constructor(sql: PoolSql) {
    super();
    this.opened = groupedStatement({ sql, write: (s, batch) => countMoves(s, batch, 1), maxBatch: MAX_MOVES_PER_STATEMENT });
    this.gone = groupedStatement({ sql, write: (s, batch) => countMoves(s, batch, -1), maxBatch: MAX_MOVES_PER_STATEMENT });
  }

  /**
   * Counts the move once per event (false when `claim` was seen before): +1 active on the team, the
   * domain and the team's assignment of it, and +1 total on the domain; -1 active on the same rows,
   * never below zero. The domain is counted when it exists (in any org); the assignment only when
   * the team and the domain are of one org.
   */
  count(move: InboxMove, delta: 1 | -1): Promise<boolean> {
    return delta > 0 ? this.opened(move) : this.gone(move);
  }
}

/** One statement for a batch of moves of one sign; an event given twice in a batch counts once. */
async function countMoves(sql: PoolSql, batch: InboxMove[], delta: 1 | -1): Promise<boolean[]> {
  const { unique, outcomes } = claimsOf(batch);
  const col = <T>(f: (m: InboxMove) => T) => unique.map(f);
  const claimed = await sql<{ consumer: string; event_id: string }>`
    WITH input AS (
      SELECT * FROM unnest(${col((m) => m.claim.consumer)}::text[], ${col((m) => m.claim.eventId)}::uuid[],
        ${col((m) => m.teamId)}::uuid[], ${col((m) => m.domainName)}::text[]) AS t(consumer, event_id, team_id, domain_name)
    ), claimed AS (
      INSERT INTO processed_events (consumer, event_id) SELECT consumer, event_id FROM input
      ON CONFLICT DO NOTHING RETURNING consumer, event_id
    ), fresh AS (
      SELECT i.team_id, d.id AS domain_id, d.org_id AS domain_org_id
      FROM input i JOIN claimed c ON c.consumer = i.consumer AND c.event_id = i.event_id
      LEFT JOIN domains d ON d.domain_name = i.domain_name
    ), teams_moved AS (
      UPDATE teams t SET active_inboxes = greatest(0, t.active_inboxes + ${delta}::int * f.n), updated_at = now()
      FROM (SELECT team_id, count(*)::int AS n FROM fresh GROUP BY team_id) f
      WHERE t.id = f.team_id AND (${delta}::int > 0 OR t.active_inboxes > 0)
      RETURNING 1
    ), domains_moved AS (
      UPDATE domains d SET active_inboxes = greatest(0, d.active_inboxes + ${delta}::int * f.n),
        total_inboxes = d.total_inboxes + greatest(${delta}::int, 0) * f.n, updated_at = now()
      FROM (SELECT domain_id, count(*)::int AS n FROM fresh WHERE domain_id IS NOT NULL GROUP BY domain_id) f
      WHERE d.id = f.domain_id AND (${delta}::int > 0 OR d.active_inboxes > 0)
      RETURNING 1
    ), assignments_moved AS (
      UPDATE domain_assignments a SET active_inboxes = greatest(0, a.active_inboxes + ${delta}::int * f.n), updated_at = now()
      FROM (
        SELECT f.team_id, f.domain_id, count(*)::int AS n FROM fresh f JOIN teams t ON t.id = f.team_id AND t.org_id = f.domain_org_id
        GROUP BY f.team_id, f.domain_id
      ) f
      WHERE a.team_id = f.team_id AND a.domain_id = f.domain_id AND (${delta}::int > 0 OR a.active_inboxes > 0)
      RETURNING 1
    )
    SELECT consumer, event_id::text FROM claimed`;
  return outcomes(claimed);
}
