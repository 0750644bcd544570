package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookEventTest {

  private static WebhookEvent parse(String json) {
    return WebhookEvent.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsTheDefaultBodyOfNetBox3And4() {
    WebhookEvent e =
        parse(
            """
            {"event": "updated", "timestamp": "2024-03-01 09:00:00.123456+00:00",
             "model": "device", "username": "jdoe",
             "request_id": "fdbca812-3142-4783-b364-2e2bd5c16c6a",
             "data": {"id": 19, "name": "r1", "last_updated": "2024-03-01T09:00:00.000002Z"},
             "snapshots": {"prechange": null, "postchange": {"name": "r1"}}}
            """);
    assertThat(e.event()).isEqualTo("updated");
    assertThat(e.model()).isEqualTo("device");
    assertThat(e.username()).isEqualTo("jdoe");
    assertThat(e.requestId()).isEqualTo("fdbca812-3142-4783-b364-2e2bd5c16c6a");
    assertThat(e.objectId()).isEqualTo(19);
    assertThat(e.deviceId()).isEqualTo(19);
    assertThat(e.lastUpdated()).isEqualTo(1709283600000002L);
  }

  @Test
  void readsNewerNetBoxsObjectTypeAndRequest() {
    WebhookEvent e =
        parse(
            """
            {"event": "created", "timestamp": "2026-01-01T00:00:00+00:00",
             "object_type": "dcim.macaddress",
             "request": {"id": "0a1b", "user": "admin", "path": "/api/dcim/mac-addresses/"},
             "data": {"id": 5, "mac_address": "52:54:00:00:00:01",
                      "assigned_object_type": "dcim.interface",
                      "assigned_object": {"id": 70, "device": {"id": 7}}}}
            """);
    assertThat(e.model()).isEqualTo("macaddress");
    assertThat(e.requestId()).isEqualTo("0a1b");
    assertThat(e.username()).isEqualTo("admin");
    assertThat(e.deviceId()).isEqualTo(7);
    WebhookEvent i =
        parse(
            "{\"event\":\"deleted\",\"model\":\"interface\",\"data\":{\"id\":70,\"device\":{\"id\":7}}}");
    assertThat(i.deviceId()).isEqualTo(7);
  }

  @Test
  void sameDeliverySameKey() {
    String body =
        "{\"event\":\"updated\",\"model\":\"device\",\"request_id\":\"r\",\"data\":{\"id\":1}}";
    assertThat(parse(body).key()).isEqualTo(parse(body).key());
    assertThat(parse(body.replace("\"r\"", "\"s\"")).key()).isNotEqualTo(parse(body).key());
  }

  @Test
  void refusesWhatIsNoWebhook() {
    assertThatThrownBy(() -> parse("[]")).hasMessageContaining("JSON object");
    assertThatThrownBy(
            () -> parse("{\"event\":\"moved\",\"model\":\"device\",\"data\":{\"id\":1}}"))
        .hasMessageContaining("created, updated or deleted");
    assertThatThrownBy(() -> parse("{\"event\":\"created\",\"data\":{\"id\":1}}"))
        .hasMessageContaining("names no model");
    assertThatThrownBy(() -> parse("{\"event\":\"created\",\"model\":\"device\",\"data\":{}}"))
        .hasMessageContaining("with its id");
    assertThatThrownBy(() -> parse("not json")).hasMessageContaining("not JSON");
  }
}
