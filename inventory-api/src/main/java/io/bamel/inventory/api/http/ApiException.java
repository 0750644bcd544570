package io.bamel.inventory.api.http;

/**
 * Ends a request with a {@link Problem}. Thrown by the routes and mapped to the response by {@link
 * ErrorHandling}; it carries no stack trace (it is an answer, not a fault).
 */
public final class ApiException extends RuntimeException {

  private final transient Problem problem;

  /** An exception answering with {@code problem}. */
  public ApiException(Problem problem) {
    super(problem.title() + ": " + problem.detail(), null, false, false);
    this.problem = problem;
  }

  /** The problem to answer with. */
  public Problem problem() {
    return problem;
  }
}
