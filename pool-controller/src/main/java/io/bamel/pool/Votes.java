package io.bamel.pool;

import java.util.Set;

/**
 * The Prometheus triggers' votes for one pool at one moment.
 *
 * @param up names of triggers voting up
 * @param down names of triggers voting down
 * @param downTriggers names of every configured down trigger (a scale-down needs them all)
 * @param available whether every query was answered
 * @param reason why not, when some were not
 */
public record Votes(
    Set<String> up, Set<String> down, Set<String> downTriggers, boolean available, String reason) {

  /** No triggers, no votes. */
  public static final Votes NONE = new Votes(Set.of(), Set.of(), Set.of(), true, null);

  /** Copies the sets. */
  public Votes {
    up = Set.copyOf(up);
    down = Set.copyOf(down);
    downTriggers = Set.copyOf(downTriggers);
  }
}
