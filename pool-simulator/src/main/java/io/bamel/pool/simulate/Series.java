package io.bamel.pool.simulate;

/**
 * A run's time series, one point every {@code sampleSeconds} from {@code start}, for the picture:
 * CPU requested by the pods that should run (bound or waiting), CPU of the servers drawing power,
 * CPU of the Ready servers, and pods waiting.
 *
 * @param start the first point's time, seconds on the trace's clock
 * @param sampleSeconds the time between points
 * @param requestedCpu cores requested
 * @param poweredCpu cores of powered servers (booting, ready, draining or shutting down)
 * @param readyCpu cores of Ready servers
 * @param pendingPods pods waiting
 */
public record Series(
    long start,
    long sampleSeconds,
    double[] requestedCpu,
    double[] poweredCpu,
    double[] readyCpu,
    int[] pendingPods) {

  /** How many points. */
  public int size() {
    return requestedCpu.length;
  }
}
