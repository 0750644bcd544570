package io.bamel.power.process;

/**
 * How a finished (or killed) process ended.
 *
 * @param exitCode the exit code (-1 when killed)
 * @param stdout what it printed on standard output
 * @param stderr what it printed on standard error
 * @param timedOut whether it was killed at its timeout
 */
public record ProcessResult(int exitCode, String stdout, String stderr, boolean timedOut) {}
