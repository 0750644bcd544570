package io.bamel.inventory.api.http;

import io.bamel.inventory.api.ApiOptions;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionLimit;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;

/**
 * Builds the API's Jetty connector from {@link ApiOptions.Connections}: HTTP/1.1, over TLS when a
 * TLS context is given (plain HTTP on that port then fails the handshake), the accept queue, the
 * idle timeout, the minimum request body data rate, a {@link ConnectionLimit} (beyond it the server
 * stops accepting until a connection closes) and the {@link HeaderDeadline}.
 */
final class ApiConnector {

  private ApiConnector() {}

  static ServerConnector create(
      Server server,
      HttpConfiguration http,
      ApiOptions.Connections settings,
      ApiTlsContext tls,
      String host,
      int port) {
    http.setMinRequestDataRate(settings.minRequestDataRate());
    ServerConnector connector;
    if (tls == null) {
      connector = new ServerConnector(server, new HttpConnectionFactory(http));
    } else {
      http.addCustomizer(new SecureRequestCustomizer());
      connector =
          new ServerConnector(
              server,
              new SslConnectionFactory(tls.factory(), HttpVersion.HTTP_1_1.asString()),
              new HttpConnectionFactory(http));
      connector.addBean(tls);
    }
    connector.setHost(host);
    connector.setPort(port);
    connector.setAcceptQueueSize(settings.acceptQueueSize());
    connector.setIdleTimeout(settings.idleTimeout().toMillis());
    connector.addBean(new HeaderDeadline(settings.headerTimeout()));
    server.addBean(new ConnectionLimit(settings.maxConnections(), connector));
    return connector;
  }
}
