package io.bamel.inventory.leader;

import io.bamel.inventory.store.WriteFence;

/**
 * Hears when a {@link LeaderElection} gains or loses leadership. Called on the election's own
 * thread, in order (gained, lost, gained, ...); a listener should return quickly.
 */
public interface LeadershipListener {

  /** This process leads now; its writes are to be fenced by {@code fence}. */
  void gained(WriteFence fence);

  /** This process no longer leads (resigned, lease lost, key taken); stop acting at once. */
  void lost();
}
