package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * One answer of a Redfish service.
 *
 * @param code the HTTP status
 * @param body the JSON body ({@link MissingNode} when empty or not JSON)
 * @param etag the {@code ETag} header, or {@code null}
 */
record RedfishResponse(int code, JsonNode body, String etag) {

  boolean ok() {
    return code >= 200 && code < 300;
  }

  /** The Redfish error message of an error answer, for exception messages (never a secret). */
  String errorMessage() {
    JsonNode error = body.path(RedfishNames.ERROR);
    JsonNode info = error.path(RedfishNames.EXTENDED_INFO);
    String message =
        info.isArray() && !info.isEmpty()
            ? info.get(0)
                .path(RedfishNames.MESSAGE)
                .asText(error.path(RedfishNames.ERROR_MESSAGE).asText(""))
            : error.path(RedfishNames.ERROR_MESSAGE).asText("");
    String code = error.path(RedfishNames.ERROR_CODE).asText("");
    String text = (code + " " + message).trim();
    return text.isEmpty() ? "HTTP " + this.code : "HTTP " + this.code + " " + text;
  }
}
