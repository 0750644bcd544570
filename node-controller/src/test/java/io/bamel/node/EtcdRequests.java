package io.bamel.node;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the KV requests an etcd member has handled, from its own metrics ({@code
 * grpc_server_handled_total}): every read ({@code Range}, and {@code Txn}, which a multi-key read
 * uses) and every write ({@code Txn}, {@code Put}) a client made, whoever made it.
 */
final class EtcdRequests {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private EtcdRequests() {}

  /** How many {@code method} requests ({@code Range}, {@code Txn}, ...) the member handled. */
  static long handled(String clientUrl, String method) throws IOException, InterruptedException {
    String metrics =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(clientUrl + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    Pattern line =
        Pattern.compile(
            "^grpc_server_handled_total\\{[^}]*grpc_method=\""
                + method
                + "\"[^}]*grpc_service=\"etcdserverpb.KV\"[^}]*} (\\S+)$",
            Pattern.MULTILINE);
    long total = 0;
    Matcher m = line.matcher(metrics);
    while (m.find()) {
      total += (long) Double.parseDouble(m.group(1));
    }
    return total;
  }
}
