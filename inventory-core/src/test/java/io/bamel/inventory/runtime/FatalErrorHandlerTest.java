package io.bamel.inventory.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FatalErrorHandlerTest {

  private final List<Integer> exits = new ArrayList<>();
  private final FatalErrorHandler handler = new FatalErrorHandler(exits::add);

  @Test
  void anErrorOnAnyThreadEndsTheProcess() {
    handler.uncaughtException(new Thread("OkHttp Dispatcher"), new OutOfMemoryError("heap"));
    assertThat(exits).containsExactly(FatalErrorHandler.EXIT_CODE);
  }

  @Test
  void anExceptionKillingACoreThreadEndsTheProcess() {
    Thread cache = CoreThreads.factory("cache").newThread(() -> {});
    assertThat(cache.getName()).isEqualTo("bamel-cache");
    assertThat(cache.isDaemon()).isTrue();
    handler.uncaughtException(cache, new IllegalStateException("bug"));
    assertThat(exits).containsExactly(FatalErrorHandler.EXIT_CODE);
  }

  @Test
  void anExceptionEndingSomeoneElsesThreadIsOnlyLogged() {
    handler.uncaughtException(new Thread("grpc-default-executor-0"), new IllegalStateException());
    assertThat(exits).isEmpty();
  }

  @Test
  void aGuardedLoopSurvivesExceptionsAndHandsErrorsToTheHandler() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    ScheduledExecutorService loop =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread t = CoreThreads.factory("test-loop").newThread(task);
              t.setUncaughtExceptionHandler(handler);
              return t;
            });
    try {
      Runnable body =
          CoreThreads.guarded(
              "test loop",
              LoggerFactory.getLogger(FatalErrorHandlerTest.class),
              () -> {
                if (rounds.incrementAndGet() < 3) {
                  throw new IllegalStateException("transient");
                }
                throw new StackOverflowError();
              });
      var future = loop.scheduleWithFixedDelay(body, 0, 10, TimeUnit.MILLISECONDS);
      assertThatThrownBy(() -> future.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(StackOverflowError.class);
      assertThat(rounds.get()).isEqualTo(3);
      assertThat(exits).containsExactly(FatalErrorHandler.EXIT_CODE);
    } finally {
      loop.shutdownNow();
    }
  }
}
