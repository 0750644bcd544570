package io.bamel.power.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

/**
 * One answer of the Proxmox VE API, before its status is judged. Pure.
 *
 * @param code the HTTP status
 * @param reason the reason phrase (Proxmox puts its error message there)
 * @param body the JSON body ({@code MissingNode} when empty or not JSON)
 */
record ProxmoxAnswer(int code, String reason, JsonNode body) {

  boolean ok() {
    return code >= 200 && code < 300;
  }

  /**
   * The parameters a 400 "Parameter verification failed" names in its {@code errors} member (such
   * as a parameter this Proxmox VE version does not know); empty otherwise.
   */
  Set<String> rejectedParameters() {
    Set<String> names = new TreeSet<>();
    if (code == 400) {
      for (Iterator<String> it = body.path("errors").fieldNames(); it.hasNext(); ) {
        names.add(it.next());
      }
    }
    return names;
  }
}
