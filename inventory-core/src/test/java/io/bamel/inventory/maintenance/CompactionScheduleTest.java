package io.bamel.inventory.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompactionScheduleTest {

  @Test
  void compactsToTheRevisionSeenOneTickEarlier() {
    CompactionSchedule schedule = new CompactionSchedule();
    assertThat(schedule.tick(100)).as("first tick only remembers").isZero();
    assertThat(schedule.tick(250)).isEqualTo(100);
    schedule.compactedTo(100);
    assertThat(schedule.tick(400)).isEqualTo(250);
  }

  @Test
  void doesNothingWithoutNewWrites() {
    CompactionSchedule schedule = new CompactionSchedule();
    schedule.tick(100);
    assertThat(schedule.tick(100)).isEqualTo(100);
    schedule.compactedTo(100);
    assertThat(schedule.tick(100)).as("nothing written since").isZero();
  }

  @Test
  void neverGoesBelowWhatSomeoneElseCompacted() {
    CompactionSchedule schedule = new CompactionSchedule();
    schedule.tick(100);
    schedule.compactedTo(300);
    assertThat(schedule.tick(350)).isZero();
    assertThat(schedule.tick(500)).isEqualTo(350);
  }

  @Test
  void afterResetTheNextTickOnlyRemembers() {
    CompactionSchedule schedule = new CompactionSchedule();
    schedule.tick(100);
    schedule.reset();
    assertThat(schedule.tick(900)).isZero();
    assertThat(schedule.tick(950)).isEqualTo(900);
  }
}
