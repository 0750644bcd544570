package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.store.Codec;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;

/**
 * One NetBox webhook, read from the body NetBox sends by default: {@code event} ({@code created},
 * {@code updated}, {@code deleted}), {@code timestamp}, the model ({@code model}: {@code device},
 * or in newer NetBox {@code object_type}: {@code dcim.device}), {@code username} (or {@code
 * request.user}), {@code request_id} (or {@code request.id}), {@code data} (the object as the REST
 * API shows it) and {@code snapshots}. Pure.
 *
 * @param event {@code created}, {@code updated} or {@code deleted}
 * @param model the model's name without its app: {@code device}, {@code interface}, {@code
 *     macaddress}, ...
 * @param requestId NetBox's request id (one request can change many objects), or null
 * @param username who made the change in NetBox, or null
 * @param objectId the changed object's id
 * @param deviceId the device the change concerns: the object for a device, its device for an
 *     interface or a MAC address assigned to one; 0 when none
 * @param lastUpdated the object's {@code last_updated} in µs, or null
 * @param data the object
 */
public record WebhookEvent(
    String event,
    String model,
    String requestId,
    String username,
    long objectId,
    long deviceId,
    Long lastUpdated,
    JsonNode data) {

  /**
   * The event in {@code body}.
   *
   * @throws IllegalArgumentException saying what is missing when it is no NetBox webhook body
   */
  public static WebhookEvent parse(byte[] body) {
    JsonNode root;
    try {
      root = Codec.mapper().readTree(body);
    } catch (IOException e) {
      throw new IllegalArgumentException("the body is not JSON");
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("the body must be a JSON object");
    }
    String event = text(root.get("event"));
    if (event == null
        || !(event.equals("created") || event.equals("updated") || event.equals("deleted"))) {
      throw new IllegalArgumentException("event must be created, updated or deleted");
    }
    String model = text(root.get("model"));
    if (model == null) {
      String type = text(root.get("object_type"));
      model = type == null ? null : type.substring(type.indexOf('.') + 1);
    }
    if (model == null) {
      throw new IllegalArgumentException("the body names no model (model or object_type)");
    }
    model = model.toLowerCase(Locale.ROOT);
    JsonNode data = root.get("data");
    if (data == null || !data.isObject() || !data.path("id").canConvertToLong()) {
      throw new IllegalArgumentException("data must be the changed object, with its id");
    }
    String requestId =
        Optional.ofNullable(text(root.get("request_id")))
            .orElse(text(root.path("request").get("id")));
    String username =
        Optional.ofNullable(text(root.get("username")))
            .orElse(text(root.path("request").get("user")));
    long objectId = data.get("id").asLong();
    long deviceId =
        switch (model) {
          case "device" -> objectId;
          case "interface" -> data.path("device").path("id").asLong(0);
          case "macaddress" ->
              "dcim.interface".equals(text(data.get("assigned_object_type")))
                  ? data.path("assigned_object").path("device").path("id").asLong(0)
                  : 0;
          default -> 0;
        };
    return new WebhookEvent(
        event,
        model,
        requestId,
        username,
        objectId,
        deviceId,
        NetBoxDevices.lastUpdatedMicros(data.get("last_updated")),
        data);
  }

  /** What makes a delivery the same as another: request, model, object and event. */
  public String key() {
    return requestId + "|" + model + "|" + objectId + "|" + event + "|" + lastUpdated;
  }

  private static String text(JsonNode v) {
    return v != null && v.isTextual() && !v.asText().isBlank() ? v.asText() : null;
  }
}
