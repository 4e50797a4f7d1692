package dev.burnbox;

import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Drops a webhook delivery already handled: retries and redeliveries repeat its id, and a captured
 * delivery replayed within the verify tolerance carries the same one. Call {@link #seen(String)} after
 * {@link Webhooks#verify} accepted it; answer 2xx without handling it when true, and call
 * {@link #forget(String)} when handling failed so that the retry gets through.
 *
 * <p>Remembers ids in memory, in this process, for {@code ttl} (24 h by default), at most {@code max}
 * of them (10,000 by default; the least recently seen go first). Thread-safe.
 */
public final class ReplayGuard {
  private final Duration ttl;
  private final int max;
  private final Clock clock;
  /** id -> when it stops counting, in access order (the least recently seen first). */
  private final LinkedHashMap<String, Long> ids = new LinkedHashMap<>(16, 0.75f, true);

  public ReplayGuard() {
    this(Duration.ofHours(24), 10_000, Clock.systemUTC());
  }

  public ReplayGuard(Duration ttl, int max) {
    this(ttl, max, Clock.systemUTC());
  }

  public ReplayGuard(Duration ttl, int max, Clock clock) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.isZero() || ttl.isNegative()) throw new IllegalArgumentException("ttl must be positive");
    if (max < 1) throw new IllegalArgumentException("max must be at least 1");
    this.ttl = ttl;
    this.max = max;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** True when this delivery id was seen within the TTL (drop the delivery); else records it and is false. */
  public synchronized boolean seen(String deliveryId) {
    Objects.requireNonNull(deliveryId, "deliveryId");
    long now = clock.millis();
    Long expires = ids.get(deliveryId); // a hit moves it to the most recently seen; its expiry stays the first sighting's
    if (expires != null && expires > now) return true;
    ids.put(deliveryId, now + ttl.toMillis());
    for (Iterator<Map.Entry<String, Long>> it = ids.entrySet().iterator(); ids.size() > max && it.hasNext(); ) {
      it.next();
      it.remove();
    }
    return false;
  }

  /** Forgets an id whose handling failed, so that its retry is handled. */
  public synchronized void forget(String deliveryId) {
    ids.remove(deliveryId);
  }

  /** How many ids are remembered. */
  public synchronized int size() {
    return ids.size();
  }
}
