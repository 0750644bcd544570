package io.bamel.node;

import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.leader.LeadershipListener;
import io.bamel.inventory.store.WriteFence;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Single-leader ownership: the leader of {@link NodeController#COMPONENT} owns every node, and its
 * writes are fenced by its leadership key, so a deposed leader's writes fail even before it
 * notices. Gaining leadership hands over every node; losing it drops nothing (the workers skip what
 * they may no longer act on), so a standby continues from what etcd says.
 */
final class LeaderOwnership implements Ownership {

  private final LeaderElection election;

  LeaderOwnership(LeaderElection election) {
    this.election = election;
  }

  @Override
  public Optional<WriteFence> fence(String id) {
    return election.fence();
  }

  @Override
  public boolean owns(String id) {
    return election.isLeader();
  }

  @Override
  public boolean active() {
    return election.isLeader();
  }

  @Override
  public String component() {
    return election.component();
  }

  @Override
  public void listen(Consumer<Handover> listener) {
    election.addListener(
        new LeadershipListener() {
          @Override
          public void gained(WriteFence fence) {
            listener.accept(new Handover(id -> true, id -> false, "leads"));
          }

          @Override
          public void lost() {
            listener.accept(new Handover(id -> false, id -> false, "lost leadership"));
          }
        });
  }
}
