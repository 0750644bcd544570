package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

  final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  final WorkQueue queue = new WorkQueue(timer, Duration.ofSeconds(1), Duration.ofMinutes(5));

  @AfterEach
  void stop() {
    timer.shutdownNow();
  }

  @Test
  void holdsEachIdOnce() throws Exception {
    queue.add("a");
    queue.add("b");
    queue.add("a");
    assertThat(queue.depth()).isEqualTo(2);
    assertThat(queue.take()).isEqualTo("a");
    assertThat(queue.take()).isEqualTo("b");
    assertThat(queue.depth()).isZero();
  }

  @Test
  void anIdBeingWorkedOnIsHandedOutAgainOnlyAfterDone() throws Exception {
    queue.add("a");
    assertThat(queue.take()).isEqualTo("a");
    queue.add("a");
    queue.add("a");
    assertThat(queue.depth()).as("not handed to a second worker").isZero();
    queue.add("b");
    assertThat(queue.take()).isEqualTo("b");
    queue.done("a");
    assertThat(queue.depth()).isEqualTo(1);
    assertThat(queue.take()).isEqualTo("a");
    queue.done("a");
    assertThat(queue.depth()).isZero();
  }

  @Test
  void delayedIdsArriveLater() throws Exception {
    queue.addAfter("a", Duration.ofMillis(200));
    queue.addAfter("a", Duration.ofMinutes(10)); // a later delay does not push it back
    assertThat(queue.depth()).isZero();
    await().atMost(Duration.ofSeconds(5)).until(() -> queue.depth() == 1);
    assertThat(queue.take()).isEqualTo("a");
  }

  @Test
  void backoffDoublesWithJitterAndIsCapped() {
    for (int i = 0; i < 100; i++) {
      assertThat(queue.backoff(1)).isBetween(Duration.ofMillis(800), Duration.ofMillis(1200));
      assertThat(queue.backoff(3)).isBetween(Duration.ofMillis(3200), Duration.ofMillis(4800));
      assertThat(queue.backoff(40)).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(5));
    }
  }

  @Test
  void retryGrowsUntilForgotten() {
    Duration first = queue.retry("a");
    queue.retry("a");
    Duration third = queue.retry("a");
    assertThat(third).isGreaterThan(first);
    queue.forget("a");
    assertThat(queue.retry("a")).isLessThan(Duration.ofMillis(1201));
  }

  @Test
  void shutDownReleasesWaitingWorkers() throws Exception {
    Thread t =
        new Thread(
            () -> {
              try {
                assertThat(queue.take()).isNull();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    t.start();
    queue.shutDown();
    t.join(5_000);
    assertThat(t.isAlive()).isFalse();
  }

  @Test
  void aRemovedIdLeavesTheQueueItsDelayAndItsRequeue() throws Exception {
    queue.add("a");
    queue.add("b");
    queue.addAfter("c", Duration.ofMillis(100));
    assertThat(queue.take()).isEqualTo("a");
    queue.add("a"); // added while a worker has it: queued again when done, unless removed

    queue.remove("a");
    queue.remove("b");
    queue.remove("c");
    queue.done("a");

    assertThat(queue.depth()).isZero();
    Thread.sleep(300);
    assertThat(queue.depth()).as("the delayed id does not arrive").isZero();
    queue.add("b");
    assertThat(queue.take()).as("a removed id can be queued again").isEqualTo("b");
  }

  @Test
  void theSoonerOfTwoDelaysQueuesTheIdOnce() throws Exception {
    queue.addAfter("a", Duration.ofMillis(300));
    queue.addAfter("a", Duration.ofMillis(50));
    await().atMost(Duration.ofSeconds(5)).until(() -> queue.depth() == 1);
    assertThat(queue.take()).isEqualTo("a");
    queue.done("a");
    Thread.sleep(400);
    assertThat(queue.depth()).as("the later delay was superseded").isZero();
  }
}
