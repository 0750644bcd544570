package io.bamel.bench.endurance;

import io.bamel.inventory.maintenance.DefragRule;
import io.etcd.jetcd.Maintenance;
import io.etcd.jetcd.maintenance.StatusResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Defragmentation on the simulated clock, as {@code EtcdDefragmenter} does it on the real one: at
 * each check every member's sizes are read, the {@link DefragRule} names the member to defragment
 * (if any), and that member is defragmented and measured again. The day checks just after each
 * compaction is applied, when a defragmentation repacks the least. Not thread-safe: one caller.
 */
final class Defrags {

  private final Maintenance maintenance;
  private final List<String> endpoints;
  private final DefragRule rule;
  private final WriteCounts counts;
  private final List<Double> millis = new ArrayList<>();
  private DefragRule.History history = DefragRule.History.NONE;

  Defrags(Maintenance maintenance, List<String> endpoints, DefragRule rule, WriteCounts counts) {
    this.maintenance = maintenance;
    this.endpoints = List.copyOf(endpoints);
    this.rule = rule;
    this.counts = counts;
  }

  /** One check at simulated time {@code now}; returns the member defragmented, if any. */
  Optional<DefragRule.Member> check(Instant now) throws Exception {
    List<DefragRule.Member> members = new ArrayList<>();
    for (String endpoint : endpoints) {
      members.add(measure(endpoint));
    }
    history = history.seen(members);
    Optional<DefragRule.Member> next = rule.next(members, history, now);
    if (next.isEmpty()) {
      return next;
    }
    long start = System.nanoTime();
    maintenance.defragmentMember(next.get().endpoint()).get(5, TimeUnit.MINUTES);
    millis.add((System.nanoTime() - start) / 1e6);
    counts.defrags.increment();
    history = DefragRule.defragmented(history, measure(next.get().endpoint()), now);
    return next;
  }

  /** How long each defragmentation took. */
  List<Double> millis() {
    return List.copyOf(millis);
  }

  private DefragRule.Member measure(String endpoint) throws Exception {
    StatusResponse s = maintenance.statusMember(endpoint).get(1, TimeUnit.MINUTES);
    return new DefragRule.Member(endpoint, s.getDbSize(), s.getDbSizeInUse());
  }
}
