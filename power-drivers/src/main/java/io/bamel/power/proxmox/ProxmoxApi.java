package io.bamel.power.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.bamel.power.BmcPacer;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.tls.HttpFailures;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Calls of the Proxmox VE API with an API token ({@code Authorization: PVEAPIToken=...}); answers
 * the {@code data} member. Errors are typed: 401/403 bad credentials, 404 and "does not exist" not
 * found, other 5xx transient, other 4xx a protocol error. Every request waits for its turn at the
 * host ({@link BmcPacer}, keyed by {@code host:port}): one Proxmox host serves many VMs.
 */
final class ProxmoxApi {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final OkHttpClient client;
  private final String authorization;
  private final BmcPacer pacer;
  private final String host;

  ProxmoxApi(OkHttpClient client, String apiToken, BmcPacer pacer, String host) {
    this.client = client;
    this.authorization = "PVEAPIToken=" + apiToken;
    this.pacer = pacer;
    this.host = host;
  }

  JsonNode get(HttpUrl url, Deadline deadline) throws PowerException {
    String what = "GET " + url.encodedPath();
    return data(what, exchange(new Request.Builder().url(url).get(), what, deadline));
  }

  JsonNode post(HttpUrl url, Map<String, String> form, Deadline deadline) throws PowerException {
    return data("POST " + url.encodedPath(), postForAnswer(url, form, deadline));
  }

  /** A form POST whose answer the caller judges (failing only when no answer came). */
  ProxmoxAnswer postForAnswer(HttpUrl url, Map<String, String> form, Deadline deadline)
      throws PowerException {
    FormBody.Builder body = new FormBody.Builder();
    form.forEach(body::add);
    return exchange(
        new Request.Builder().url(url).post(body.build()), "POST " + url.encodedPath(), deadline);
  }

  /**
   * The {@code data} member of a 2xx answer; otherwise the typed failure: 401/403 bad credentials,
   * 404 and "does not exist" not found, 5xx transient, anything else a protocol error (a 400 names
   * the parameters Proxmox rejected).
   */
  static JsonNode data(String what, ProxmoxAnswer answer) throws PowerException {
    int code = answer.code();
    if (answer.ok()) {
      return answer.body().path("data");
    }
    String reason = answer.reason();
    String message = what + ": HTTP " + code + (reason.isBlank() ? "" : " " + reason);
    if (code == 401 || code == 403) {
      throw new TerminalPowerException(
          PowerException.Reason.BAD_CREDENTIALS, what + ": the API token was refused");
    }
    if (code == 404 || reason.contains("does not exist")) {
      throw new TerminalPowerException(PowerException.Reason.NOT_FOUND, message);
    }
    if (code >= 500) {
      throw new TransientPowerException(PowerException.Reason.BMC_ERROR, message);
    }
    if (!answer.rejectedParameters().isEmpty()) {
      message += " (rejected parameters: " + String.join(", ", answer.rejectedParameters()) + ")";
    }
    throw new TerminalPowerException(PowerException.Reason.PROTOCOL, message);
  }

  private ProxmoxAnswer exchange(Request.Builder builder, String what, Deadline deadline)
      throws PowerException {
    deadline.check(what);
    Request request =
        builder.header("Authorization", authorization).header("Accept", "application/json").build();
    BmcPacer.Turn turn = turn(what, deadline);
    Call call = client.newCall(request);
    call.timeout().timeout(Math.max(1, deadline.remaining().toMillis()), TimeUnit.MILLISECONDS);
    try (turn;
        Response response = call.execute()) {
      ResponseBody body = response.body();
      String text = body == null ? "" : body.string();
      JsonNode json = MissingNode.getInstance();
      try {
        if (!text.isBlank()) {
          json = JSON.readTree(text);
        }
      } catch (IOException e) {
        json = MissingNode.getInstance();
      }
      String reason = response.message() == null ? "" : response.message();
      return new ProxmoxAnswer(response.code(), reason, json);
    } catch (IOException e) {
      throw HttpFailures.of(what, e);
    }
  }

  private BmcPacer.Turn turn(String what, Deadline deadline) throws PowerException {
    try {
      Optional<BmcPacer.Turn> turn = pacer.acquire(host, deadline.remaining());
      if (turn.isEmpty()) {
        throw new TransientPowerException(
            PowerException.Reason.TIMEOUT,
            what
                + " on "
                + host
                + ": the host is busy with other requests of bamel's until the"
                + " deadline");
      }
      return turn.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, what + ": interrupted", e);
    }
  }
}
