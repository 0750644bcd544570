package io.bamel.server;

import io.bamel.inventory.api.TokenStore;
import io.bamel.server.config.ConfigException;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.ServerConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bamel server}: runs the API and the controllers in one process. Settings come from {@code
 * --config}, then {@code BAMEL_*} variables, then flags (flags win). With no etcd endpoints it
 * starts its own etcd (data in {@code --etcd-data-dir}) and, unless a tokens file is configured,
 * prints a freshly generated admin token whose hash it keeps next to the data.
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Runs the bamel API, node controller and pool controller.")
public final class ServerCommand implements Callable<Integer> {

  @Option(names = "--config", description = "YAML configuration file")
  Path config;

  @Option(
      names = "--components",
      description = "api,node-controller,pool-controller (default: all)")
  String components;

  @Option(names = "--host", description = "address to listen on (default 0.0.0.0)")
  String host;

  @Option(names = "--port", description = "API port (default 8080; 0: a free one)")
  String port;

  @Option(names = "--instance", description = "this process's name in leader election")
  String instance;

  @Option(
      names = "--etcd-endpoints",
      description = "etcd client URLs, comma-separated (none: embedded)")
  String etcdEndpoints;

  @Option(names = "--etcd-data-dir", description = "data of the embedded etcd (default ./var/etcd)")
  String etcdDataDir;

  @Option(names = "--etcd-ca-file", description = "CA bundle for etcd's certificate")
  String etcdCaFile;

  @Option(names = "--etcd-cert-file", description = "client certificate for etcd")
  String etcdCertFile;

  @Option(names = "--etcd-key-file", description = "client key for etcd")
  String etcdKeyFile;

  @Option(names = "--etcd-user", description = "etcd user")
  String etcdUser;

  @Option(names = "--etcd-password-file", description = "file holding the etcd user's password")
  String etcdPasswordFile;

  @Option(names = "--tokens-file", description = "API tokens file (name scope sha256:hex per line)")
  String tokensFile;

  @Option(names = "--anonymous-read", description = "allow reads without a token (true/false)")
  String anonymousRead;

  @Option(names = "--max-body-bytes", description = "largest request body (default 8 MiB)")
  String maxBodyBytes;

  @Option(
      names = "--credentials-dir",
      description = "BMC credentials directory (default /etc/bamel/bmc)")
  String credentialsDir;

  @Option(
      names = "--kubernetes",
      description = "auto, in-cluster, kubeconfig or none (default auto)")
  String kubernetes;

  @Option(names = "--kubeconfig", description = "kubeconfig file")
  String kubeconfig;

  @Option(names = "--prometheus-url", description = "Prometheus for pool triggers")
  String prometheusUrl;

  @Option(names = "--log-format", description = "text or json (default text)")
  String logFormat;

  @Option(names = "--log-level", description = "trace, debug, info, warn, error (default info)")
  String logLevel;

  private final PrintStream out;

  /** A command printing to standard output. */
  public ServerCommand() {
    this(System.out);
  }

  ServerCommand(PrintStream out) {
    this.out = out;
  }

  /** The flags given, by configuration path. */
  Map<String, String> flags() {
    Map<String, String> f = new LinkedHashMap<>();
    put(f, "components", components);
    put(f, "http.host", host);
    put(f, "http.port", port);
    put(f, "http.maxBodyBytes", maxBodyBytes);
    put(f, "instance", instance);
    put(f, "etcd.endpoints", etcdEndpoints);
    put(f, "etcd.dataDir", etcdDataDir);
    put(f, "etcd.caFile", etcdCaFile);
    put(f, "etcd.certFile", etcdCertFile);
    put(f, "etcd.keyFile", etcdKeyFile);
    put(f, "etcd.user", etcdUser);
    put(f, "etcd.passwordFile", etcdPasswordFile);
    put(f, "auth.tokensFile", tokensFile);
    put(f, "auth.anonymousRead", anonymousRead);
    put(f, "bmc.credentialsDir", credentialsDir);
    put(f, "kubernetes.mode", kubernetes);
    put(f, "kubernetes.kubeconfig", kubeconfig);
    put(f, "poolController.prometheusUrl", prometheusUrl);
    put(f, "log.format", logFormat);
    put(f, "log.level", logLevel);
    return f;
  }

  private static void put(Map<String, String> flags, String path, String value) {
    if (value != null) {
      flags.put(path, value);
    }
  }

  @Override
  public Integer call() throws Exception {
    ServerConfig cfg;
    try {
      cfg = ConfigLoader.load(config, System.getenv(), flags());
    } catch (ConfigException e) {
      System.err.println("bamel server: " + e.getMessage());
      return 2;
    }
    Logging.configure(cfg.log().format(), cfg.log().level());
    String adminToken = null;
    TokenStore tokens;
    if (!cfg.auth().tokensFile().isEmpty()) {
      tokens = TokenStore.load(Path.of(cfg.auth().tokensFile()));
    } else if (cfg.embeddedEtcd()) {
      adminToken = TokenStore.newToken();
      tokens =
          LocalTokens.withAdmin(Path.of(cfg.etcd().dataDir()).resolveSibling("tokens"), adminToken);
    } else {
      // ConfigValidation allows this only with anonymous read: say loudly what it means.
      LoggerFactory.getLogger(ServerCommand.class)
          .warn(
              "no API tokens (auth.tokensFile is empty): anyone who reaches the API can read the"
                  + " inventory and /metrics, and nobody can write to it");
      tokens = TokenStore.empty();
    }
    StopHook hook = StopHook.install("bamel-shutdown");
    BamelServer server = hook.own(BamelServer.prepare(cfg, Overrides.NONE));
    try {
      server.start(tokens, System.getenv());
    } catch (IOException | InterruptedException | RuntimeException e) {
      hook.cancel();
      throw e;
    }
    printBanner(server, adminToken);
    hook.awaitStop();
    return 0;
  }

  private void printBanner(BamelServer server, String adminToken) throws IOException {
    String url = "http://localhost:" + server.port();
    out.println("bamel server is running (instance " + server.instance() + ")");
    out.println("  API:     " + url + "/api/v1/nodes");
    out.println("  docs:    " + url + "/docs");
    out.println("  metrics: " + url + "/metrics");
    out.println("  etcd:    " + String.join(",", server.etcdEndpoints()));
    if (adminToken != null) {
      out.println("  admin token (shown once; only its hash is kept): " + adminToken);
    }
    out.flush();
  }
}
