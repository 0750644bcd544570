package io.bamel.pool;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A small language for building pools in policy tests. */
final class Fleet {

  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  private Fleet() {}

  /** A member builder; defaults: managed, 32 cpu, 128 memory, rack r1, nothing requested. */
  static final class M {
    String id;
    NodeState state;
    DesiredPower desired;
    boolean managed = true;
    boolean maintenance;
    Resources capacity = Resources.of("cpu", 32, "memory", 128);
    String rack = "r1";
    int failures;
    boolean canPowerOff = true;
    boolean canPowerOn = true;
    boolean doNotDisrupt;
    boolean unevictable;
    Resources requested = Resources.NONE;
    boolean joinTimedOut;
    boolean settling;
    boolean notReady;
    List<Resources> pods;
    Double idleWatts;

    M(String id, NodeState state, DesiredPower desired) {
      this.id = id;
      this.state = state;
      this.desired = desired;
    }

    M rack(String r) {
      rack = r;
      return this;
    }

    M cap(Object... pairs) {
      capacity = Resources.of(pairs);
      return this;
    }

    M used(Object... pairs) {
      requested = Resources.of(pairs);
      return this;
    }

    /**
     * The pods a drain would move, each a resource list such as {@code List.of("cpu", 4)} (their
     * requests; the node's {@code requested} is their sum unless {@link #used} says otherwise).
     */
    M pods(List<?>... requests) {
      pods = new ArrayList<>();
      Resources.Sum sum = new Resources.Sum();
      for (List<?> r : requests) {
        Resources one = Resources.of(r.toArray());
        pods.add(one);
        sum.add(one);
      }
      requested = sum.build();
      return this;
    }

    M idleWatts(double watts) {
      idleWatts = watts;
      return this;
    }

    M failures(int n) {
      failures = n;
      return this;
    }

    M manual() {
      managed = false;
      return this;
    }

    M maintenance() {
      maintenance = true;
      return this;
    }

    M noPowerOff() {
      canPowerOff = false;
      return this;
    }

    M doNotDisrupt() {
      doNotDisrupt = true;
      return this;
    }

    M unevictable() {
      unevictable = true;
      return this;
    }

    M noPowerDriver() {
      canPowerOn = false;
      return this;
    }

    M settling() {
      settling = true;
      return this;
    }

    M notReady() {
      notReady = true;
      return this;
    }

    M joinTimedOut() {
      joinTimedOut = true;
      return this;
    }

    Member build() {
      return new Member(
          id,
          state,
          desired,
          managed,
          maintenance,
          capacity,
          rack,
          failures,
          canPowerOff,
          canPowerOn,
          doNotDisrupt,
          unevictable,
          requested,
          joinTimedOut,
          settling,
          notReady,
          pods,
          idleWatts);
    }
  }

  static M off(String id) {
    return new M(id, NodeState.OFF, DesiredPower.OFF);
  }

  static M ready(String id) {
    return new M(id, NodeState.READY, DesiredPower.ON);
  }

  static M poweringOn(String id) {
    return new M(id, NodeState.POWERING_ON, DesiredPower.ON);
  }

  static M joining(String id) {
    return new M(id, NodeState.JOINING, DesiredPower.ON);
  }

  static M draining(String id) {
    return new M(id, NodeState.DRAINING, DesiredPower.OFF);
  }

  static M error(String id) {
    return new M(id, NodeState.ERROR, DesiredPower.ON);
  }

  /** Meant to be off; its BMC did not answer at the last sync. */
  static M unknown(String id) {
    return new M(id, NodeState.UNKNOWN, DesiredPower.OFF);
  }

  /** Meant to be off, in error. */
  static M errorOff(String id) {
    return new M(id, NodeState.ERROR, DesiredPower.OFF);
  }

  static PendingPod pod(String name, Object... requests) {
    return new PendingPod(name, Resources.of(requests));
  }

  /** A snapshot builder. */
  static final class S {
    final List<Member> members = new ArrayList<>();
    Utilization utilization = Utilization.of(Resources.NONE, Resources.NONE);
    final List<PendingPod> pending = new ArrayList<>();
    Set<String> up = Set.of();
    Set<String> down = Set.of();
    Set<String> downTriggers = Set.of();
    Instant lowSince;
    Instant lastScaleUp;
    DemandTrend demand = DemandTrend.EMPTY;

    S with(M... ms) {
      for (M m : ms) {
        members.add(m.build());
      }
      return this;
    }

    /** Utilization as requested / allocatable per resource over the ready members. */
    S util(double cpuRatio, double memRatio) {
      Resources alloc =
          Resources.sum(members.stream().filter(Member::isReady).map(Member::capacity).toList());
      utilization =
          Utilization.of(
              Resources.of(
                  "cpu", alloc.get("cpu") * cpuRatio, "memory", alloc.get("memory") * memRatio),
              alloc);
      return this;
    }

    /** Utilization as the members' requests over their capacity, over the ready members. */
    S measured() {
      List<Member> ready = members.stream().filter(Member::isReady).toList();
      utilization =
          Utilization.of(
              Resources.sum(ready.stream().map(Member::requested).toList()),
              Resources.sum(ready.stream().map(Member::capacity).toList()));
      return this;
    }

    S unknownUtil(String why) {
      utilization = Utilization.unknown(why);
      return this;
    }

    S pending(PendingPod... pods) {
      pending.addAll(List.of(pods));
      return this;
    }

    S lowSince(Instant t) {
      lowSince = t;
      return this;
    }

    /**
     * The pool's recent demand: CPU requests going from {@code fromCpu} to {@code toCpu} in equal
     * steps, one sample a minute over {@code minutes}, the last at {@link #NOW}.
     */
    S cpuDemand(double fromCpu, double toCpu, int minutes) {
      DemandTrend t = DemandTrend.EMPTY;
      for (int i = 0; i <= minutes; i++) {
        double cpu = fromCpu + (toCpu - fromCpu) * i / minutes;
        t =
            t.observe(
                NOW.minus(java.time.Duration.ofMinutes(minutes - i)),
                Resources.of("cpu", cpu),
                java.time.Duration.ofHours(1));
      }
      demand = t;
      return this;
    }

    S lastScaleUp(Instant t) {
      lastScaleUp = t;
      return this;
    }

    S votes(Set<String> upVotes, Set<String> downVotes, Set<String> allDown) {
      up = upVotes;
      down = downVotes;
      downTriggers = allDown;
      return this;
    }

    PoolSnapshot build() {
      return new PoolSnapshot(
          members,
          utilization,
          pending,
          up,
          down,
          downTriggers,
          lowSince,
          lastScaleUp,
          demand,
          null);
    }
  }

  static S pool() {
    return new S();
  }
}
