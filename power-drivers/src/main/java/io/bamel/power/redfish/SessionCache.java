package io.bamel.power.redfish;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the driver learned about a BMC's systems during one session, by System URI: the reset types
 * from the reset action's {@code @Redfish.ActionInfo} (fetched once) and where the power reading
 * is. A new login (the BMC restarted, or its firmware changed, or the session expired) starts a new
 * cache. Thread-safe.
 */
final class SessionCache {

  /** The reset types published in ActionInfo, by System URI (empty list: none usable). */
  final Map<String, List<String>> actionInfoResetTypes = new ConcurrentHashMap<>();

  /** Where each system's power reading is, by System URI. */
  final Map<String, PowerSources> powerSources = new ConcurrentHashMap<>();
}
