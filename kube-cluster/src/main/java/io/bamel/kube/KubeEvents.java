package io.bamel.kube;

import io.bamel.inventory.cluster.NodeNotice;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Builds the {@code events.k8s.io/v1} Event of a {@link NodeNotice}: regarding the Node ({@code
 * v1}, its name and, when known, uid), in namespace {@code default}, {@code reportingController}
 * {@value Fabric8Cluster#REPORTING_CONTROLLER}, the notice's reason, action and note (with the
 * count of similar events the rate limit dropped). Pure.
 */
final class KubeEvents {

  private static final DateTimeFormatter MICRO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private KubeEvents() {}

  static Event event(NodeNotice n, String uid, int dropped, Fabric8Cluster.Options options) {
    Instant now = options.clock().instant();
    String note = n.note();
    if (dropped > 0) {
      note = note + " (" + dropped + " similar event(s) dropped by the rate limit)";
    }
    if (note.length() > NodeNotice.MAX_NOTE) {
      note = note.substring(0, NodeNotice.MAX_NOTE);
    }
    String name =
        n.nodeName()
            + "."
            + Long.toHexString(now.toEpochMilli() * 1_000_000L + now.getNano() % 1_000_000);
    return new EventBuilder()
        .withApiVersion("events.k8s.io/v1")
        .withKind("Event")
        .withNewMetadata()
        .withName(name)
        .withNamespace(Fabric8Cluster.EVENT_NAMESPACE)
        .endMetadata()
        .withEventTime(new MicroTime(MICRO.format(now)))
        .withReportingController(Fabric8Cluster.REPORTING_CONTROLLER)
        .withReportingInstance(options.reportingInstance())
        .withAction(n.action())
        .withReason(n.reason())
        .withNote(note)
        .withType(n.warning() ? "Warning" : "Normal")
        .withRegarding(
            new ObjectReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(n.nodeName())
                .withUid(uid)
                .build())
        .build();
  }
}
