package io.bamel.server;

import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.runtime.FatalErrorHandler;
import io.bamel.power.tls.X25519Provider;
import io.bamel.server.config.ConfigException;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.SecurityWarnings;
import io.bamel.server.config.ServerConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bamel server}: runs the API and the controllers in one process. Settings come from {@code
 * --config}, then {@code BAMEL_*} variables, then flags (flags win). With no etcd endpoints it
 * starts its own etcd (data in {@code --etcd-data-dir}, reachable only with the client certificate
 * generated there) and, unless a tokens file is configured, writes a freshly generated admin token
 * to a file only its owner can read ({@code admin-token} next to the data directory) and prints
 * that file's path, never the token. A configuration or tokens-file error is one line on standard
 * error and exit code 2; settings that leave a door open are logged as warnings at start.
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

  @Option(
      names = "--host",
      description = "address to listen on (default 127.0.0.1; other interfaces: use TLS)")
  String host;

  @Option(names = "--port", description = "API port (default 8080; 0: a free one)")
  String port;

  @Option(names = "--tls-cert-file", description = "API TLS certificate (chain), PEM")
  String tlsCertFile;

  @Option(names = "--tls-key-file", description = "API TLS private key, PEM")
  String tlsKeyFile;

  @Option(
      names = "--tls-client-ca-file",
      description = "CA bundle whose client certificates the API requires (PEM)")
  String tlsClientCaFile;

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

  /** The admin token file of the embedded default, next to {@code etcd.dataDir}. */
  static final String ADMIN_TOKEN_FILE = "admin-token";

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
    put(f, "http.tls.certFile", tlsCertFile);
    put(f, "http.tls.keyFile", tlsKeyFile);
    put(f, "http.tls.clientCaFile", tlsClientCaFile);
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
    // An Error anywhere or a dead core thread ends the process, so that it is restarted.
    FatalErrorHandler.install();
    // X25519 in TLS handshakes by Bouncy Castle: a third of the JDK's CPU per handshake, and a
    // fleet's periodic reads make one per read where BMCs close idle connections
    X25519Provider.install();
    Logger log = LoggerFactory.getLogger(ServerCommand.class);
    Path adminTokenFile = null;
    TokenStore tokens;
    try {
      if (!cfg.auth().tokensFile().isEmpty()) {
        Path file = Path.of(cfg.auth().tokensFile());
        tokens = TokensFile.load(file);
        TokensFile.modeWarning(file).ifPresent(log::warn);
      } else if (cfg.embeddedEtcd()) {
        Path data = Path.of(cfg.etcd().dataDir()).toAbsolutePath().normalize();
        LocalTokens.Generated generated =
            LocalTokens.withNewAdmin(
                data.resolveSibling("tokens"), data.resolveSibling(ADMIN_TOKEN_FILE));
        tokens = generated.tokens();
        adminTokenFile = generated.adminTokenFile();
      } else {
        // ConfigValidation allows this only with anonymous read: say loudly what it means.
        log.warn(
            "no API tokens (auth.tokensFile is empty): anyone who reaches the API can read the"
                + " inventory and /metrics, and nobody can write to it");
        tokens = TokenStore.empty();
      }
    } catch (ConfigException e) {
      System.err.println("bamel server: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      System.err.println(
          "bamel server: cannot write the admin token next to "
              + cfg.etcd().dataDir()
              + ": "
              + TokensFile.reason(e));
      return 2;
    }
    SecurityWarnings.of(cfg).forEach(log::warn);
    StopHook hook = StopHook.install("bamel-shutdown");
    BamelServer server = hook.own(BamelServer.prepare(cfg, Overrides.NONE));
    try {
      server.start(tokens, System.getenv());
    } catch (IOException | InterruptedException | RuntimeException e) {
      hook.cancel();
      throw e;
    }
    printBanner(server, adminTokenFile, cfg.http().tls().enabled());
    hook.awaitStop();
    return 0;
  }

  private void printBanner(BamelServer server, Path adminTokenFile, boolean tls) {
    String url = (tls ? "https" : "http") + "://localhost:" + server.port();
    out.println("bamel server is running (instance " + server.instance() + ")");
    if (server.servesApi()) {
      out.println("  console: " + url + "/ui/");
    }
    out.println("  API:     " + url + "/api/v1/nodes");
    out.println("  docs:    " + url + "/docs");
    out.println("  metrics: " + url + "/metrics");
    EtcdBanner.lines(server).forEach(out::println);
    if (adminTokenFile != null) {
      out.println("  admin token file: " + adminTokenFile);
    }
    out.flush();
  }
}
