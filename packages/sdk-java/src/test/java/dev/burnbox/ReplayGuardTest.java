package dev.burnbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ReplayGuardTest {
  /** A clock the test moves. */
  private static final class Manual extends Clock {
    private Instant now = Instant.parse("2026-12-02T05:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  @Test
  void aRepeatWithinTheTtlIsSeenAndOneAfterItIsNot() {
    Manual clock = new Manual();
    ReplayGuard guard = new ReplayGuard(Duration.ofMinutes(10), 100, clock);

    assertFalse(guard.seen("d-1"));
    assertTrue(guard.seen("d-1"));
    clock.advance(Duration.ofMinutes(9));
    assertTrue(guard.seen("d-1"), "a sighting does not extend the first one's expiry");
    clock.advance(Duration.ofMinutes(2));
    assertFalse(guard.seen("d-1"));
  }

  @Test
  void forgetLetsTheRetryThrough() {
    ReplayGuard guard = new ReplayGuard();
    assertFalse(guard.seen("d-1"));
    guard.forget("d-1");
    assertFalse(guard.seen("d-1"));
  }

  @Test
  void theLeastRecentlySeenGoFirstPastMax() {
    ReplayGuard guard = new ReplayGuard(Duration.ofHours(1), 2);
    guard.seen("a");
    guard.seen("b");
    guard.seen("a"); // a is now the most recently seen
    guard.seen("c"); // b goes

    assertEquals(2, guard.size());
    assertTrue(guard.seen("a"));
    assertFalse(guard.seen("b"));
  }

  @Test
  void itRefusesSettingsThatCannotWork() {
    assertThrows(IllegalArgumentException.class, () -> new ReplayGuard(Duration.ZERO, 10));
    assertThrows(IllegalArgumentException.class, () -> new ReplayGuard(Duration.ofHours(1), 0));
  }
}
