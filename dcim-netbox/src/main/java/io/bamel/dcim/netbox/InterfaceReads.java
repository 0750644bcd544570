package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The interface requests of a pull, started while the device pages are still being read: each
 * {@link DevicePull#INTERFACE_CHUNK} devices' interfaces are requested as soon as their page has
 * been read, at most {@link DevicePull#INTERFACE_REQUESTS_AT_ONCE} at a time, so that reading
 * NetBox's interfaces overlaps reading its device pages instead of following it.
 *
 * <p>The chunks are the same as if every device had been known first (consecutive runs of {@link
 * DevicePull#INTERFACE_CHUNK} ids in listing order), and {@link #collect} reports their failures in
 * chunk order, whatever order the requests end in. A chunk that fails leaves only its own devices
 * absent. Not thread-safe: one pull's thread adds and collects.
 */
final class InterfaceReads implements AutoCloseable {

  private final NetBoxClient client;
  private final List<Future<ChunkRead>> reads = new ArrayList<>();
  private List<Long> pending = new ArrayList<>();
  private ExecutorService requests;

  InterfaceReads(NetBoxClient client) {
    this.client = client;
  }

  /** Adds a device read from a page; its chunk is requested once full. Ids below 1 are skipped. */
  void add(long deviceId) {
    if (deviceId <= 0) {
      return;
    }
    pending.add(deviceId);
    if (pending.size() == DevicePull.INTERFACE_CHUNK) {
      submitPending();
    }
  }

  /**
   * Requests the last, partial chunk, waits for every request and answers the interfaces by device
   * id; the failures are appended to {@code errors} in chunk order.
   */
  Map<Long, List<JsonNode>> collect(List<String> errors) {
    if (!pending.isEmpty()) {
      submitPending();
    }
    Map<Long, List<JsonNode>> out = new HashMap<>();
    try {
      for (Future<ChunkRead> read : reads) {
        ChunkRead done = read.get();
        out.putAll(done.interfaces());
        if (done.error() != null) {
          errors.add(done.error());
        }
      }
    } catch (ExecutionException e) {
      // not NetBox's answer (ChunkRead keeps those): a fault of this code, thrown as it was
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NetBoxException("interrupted while reading NetBox's interfaces", 0);
    }
    return out;
  }

  /** Stops the requests still running (a pull that ends before collecting). */
  @Override
  public void close() {
    if (requests != null) {
      requests.shutdownNow();
    }
  }

  private void submitPending() {
    if (requests == null) {
      requests =
          Executors.newFixedThreadPool(
              DevicePull.INTERFACE_REQUESTS_AT_ONCE,
              Thread.ofPlatform().name("netbox-interfaces-", 0).daemon().factory());
    }
    List<Long> chunk = List.copyOf(pending);
    pending = new ArrayList<>();
    reads.add(requests.submit(() -> ChunkRead.of(client, chunk)));
  }

  /**
   * One chunk's interfaces, or why NetBox did not give them (its devices' MACs stay as they are).
   */
  private record ChunkRead(Map<Long, List<JsonNode>> interfaces, String error) {
    static ChunkRead of(NetBoxClient client, List<Long> ids) {
      try {
        return new ChunkRead(DevicePull.interfacesOf(client, ids), null);
      } catch (NetBoxException e) {
        return new ChunkRead(
            Map.of(),
            "the interfaces of "
                + ids.size()
                + " devices could not be read (their MACs stay as they are): "
                + e.getMessage());
      }
    }
  }
}
