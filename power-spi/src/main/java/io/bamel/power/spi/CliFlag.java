package io.bamel.power.spi;

/**
 * A command-line flag of {@code bamel bmc} that a power interface owns: its value becomes the
 * endpoint option {@code option} of the driver.
 *
 * @param name the flag, with its dashes ({@code --cipher-suite})
 * @param paramLabel what the value is ({@code N}, {@code HOST:PORT})
 * @param description one line of help, starting with the interface's name
 * @param option the endpoint option the value sets
 */
public record CliFlag(String name, String paramLabel, String description, String option) {}
