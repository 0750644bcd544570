package io.bamel.inventory.leader;

import io.bamel.inventory.store.WriteFence;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** What the tests of a {@link LeaderElection} listen with: a recorder, and the first term. */
public final class Leaderships {

  private Leaderships() {}

  /** Adds {@code "name gained"} and {@code "name lost"} to {@code events} as they happen. */
  public static LeadershipListener recorder(String name, List<String> events) {
    return new LeadershipListener() {
      @Override
      public void gained(WriteFence fence) {
        events.add(name + " gained");
      }

      @Override
      public void lost() {
        events.add(name + " lost");
      }
    };
  }

  /**
   * Starts {@code election} and returns the fence of the first term it gains, waiting 20 s at the
   * most.
   */
  public static WriteFence lead(LeaderElection election) throws Exception {
    CompletableFuture<WriteFence> gained = new CompletableFuture<>();
    election.addListener(
        new LeadershipListener() {
          @Override
          public void gained(WriteFence fence) {
            gained.complete(fence);
          }

          @Override
          public void lost() {}
        });
    election.start();
    return gained.get(20, TimeUnit.SECONDS);
  }
}
