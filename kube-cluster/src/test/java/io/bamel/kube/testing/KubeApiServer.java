package io.bamel.kube.testing;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetList;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fabric8 mock API server in CRUD mode on a free loopback port, plus what CRUD mode lacks:
 *
 * <ul>
 *   <li>the Eviction API: {@code POST .../pods/{name}/eviction} deletes the pod (201), unless a
 *       PodDisruptionBudget in its namespace selects it ({@code matchLabels}) and its {@code
 *       status.disruptionsAllowed} is 0 or unset, as the real API server answers: 429; as a
 *       Kubernetes 1.25+ server, it refuses (400) a body that is not a {@code policy/v1} Eviction,
 *       and it keeps every body received ({@link #evictionBodies()});
 *   <li>the {@code spec.nodeName} field selector on pods, which CRUD mode ignores;
 *   <li>an outage switch: while {@link #unreachable(boolean) unreachable}, every request is
 *       answered 503 (an API server that cannot serve);
 *   <li>expired watches: the next {@link #expireWatches(int) n} watch requests are answered 410
 *       Gone, as a real API server answers a watch from a compacted resourceVersion (the informer
 *       must list again);
 *   <li>cut watches: while {@link #cutWatches(boolean) cut}, watches deliver no change (an
 *       informer's cache falls behind the server, as when its watch is cut just before an outage),
 *       and lists of the pods on a node can be made to fail alone ({@link
 *       #failNodePodLists(boolean)}: 503);
 *   <li>a log of every request as {@code METHOD path} ({@link #requests()}), and the bodies of
 *       every {@code events.k8s.io/v1} Event created ({@link #eventBodies()}).
 * </ul>
 */
public final class KubeApiServer implements AutoCloseable {

  private static final Pattern EVICTION =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/eviction(\\?.*)?");

  private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
  private final KubernetesSerialization json = new KubernetesSerialization();
  private final KubernetesMockServer server;
  private final AtomicInteger evictions = new AtomicInteger();
  private final AtomicInteger refusedEvictions = new AtomicInteger();
  private final List<String> evictionBodies = new CopyOnWriteArrayList<>();
  private final List<String> eventBodies = new CopyOnWriteArrayList<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final AtomicInteger watchesToExpire = new AtomicInteger();
  private final WatchLog watches = new WatchLog(json);
  private final List<Node> bulkNodes = new CopyOnWriteArrayList<>();
  private final List<Pod> bulkPods = new CopyOnWriteArrayList<>();
  private volatile boolean down;
  private volatile boolean nodePodListsFail;

  private KubeApiServer() {
    Dispatcher dispatcher =
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return handle(request);
          }
        };
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init(InetAddress.getLoopbackAddress(), 0);
  }

  /** Starts a server. */
  public static KubeApiServer start() {
    return new KubeApiServer();
  }

  /**
   * A new client (JDK HTTP client, 15 s request timeout, no retries, HTTP watches reconnecting
   * after 20 ms: see {@link WatchLog}); the caller closes it. The timeout is generous because the
   * mock server shares two cores with the whole test suite; tests of an unreachable API server
   * build their own client with short timeouts.
   */
  public KubernetesClient client() {
    try (KubernetesClient template = server.createClient()) {
      return new KubernetesClientBuilder()
          .withConfig(
              new ConfigBuilder(template.getConfiguration())
                  .withRequestTimeout(15_000)
                  .withConnectionTimeout(15_000)
                  .withRequestRetryBackoffLimit(0)
                  .withOnlyHttpWatches(true)
                  .withWatchReconnectInterval(20)
                  .build())
          .withHttpClientFactory(new JdkHttpClientFactory())
          .build();
    }
  }

  /**
   * Adds {@code pods} and {@code nodes} to what the collection lists ({@code GET /api/v1/pods},
   * {@code GET /api/v1/nodes}) answer, without storing them in CRUD mode (whose create checks every
   * stored object: 50,000 would take hours): for benchmarks whose informers must list 50,000 pods.
   * No watch sees them, and they cannot be read, changed or deleted one by one.
   */
  public void preload(List<Node> nodes, List<Pod> pods) {
    bulkNodes.addAll(nodes);
    bulkPods.addAll(pods);
  }

  /** A collection list with the preloaded objects added. */
  private MockResponse withBulk(RecordedRequest request, MockResponse crudAnswer) {
    String body = new String(crudAnswer.getBody().getBytes(), StandardCharsets.UTF_8);
    String merged;
    if (request.getPath().startsWith("/api/v1/pods")) {
      PodList list = json.unmarshal(body, PodList.class);
      list.getItems().addAll(bulkPods);
      merged = json.asJson(list);
    } else {
      NodeList list = json.unmarshal(body, NodeList.class);
      list.getItems().addAll(bulkNodes);
      merged = json.asJson(list);
    }
    return new MockResponse()
        .setResponseCode(200)
        .setHeader("Content-Type", "application/json")
        .setBody(merged);
  }

  /** Switches the outage on or off. */
  public void unreachable(boolean unreachable) {
    this.down = unreachable;
  }

  /**
   * Cuts the watches ({@code true}: every watch answers no change until called with {@code false},
   * then the next watch replays what was missed); lists and writes go on.
   */
  public void cutWatches(boolean cut) {
    watches.cut(cut);
  }

  /**
   * While {@code fail}, lists of pods by {@code spec.nodeName} are answered 503; every other
   * request is served.
   */
  public void failNodePodLists(boolean fail) {
    this.nodePodListsFail = fail;
  }

  /** Evictions accepted so far. */
  public int evictions() {
    return evictions.get();
  }

  /** Evictions refused (429) so far. */
  public int refusedEvictions() {
    return refusedEvictions.get();
  }

  /** The bodies of every eviction request received, in order (JSON as sent). */
  public List<String> evictionBodies() {
    return List.copyOf(evictionBodies);
  }

  /** Answers the next {@code n} watch requests 410 Gone. */
  public void expireWatches(int n) {
    watchesToExpire.set(n);
  }

  /** Every request received, as {@code METHOD path}, in order. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  /** The bodies of every Event created through {@code events.k8s.io/v1} (JSON as sent). */
  public List<String> eventBodies() {
    return List.copyOf(eventBodies);
  }

  private MockResponse handle(RecordedRequest request) {
    requests.add(request.getMethod() + " " + request.getPath());
    if (down) {
      return status(503, "ServiceUnavailable", "the API server is down (test outage)");
    }
    if ("GET".equals(request.getMethod())
        && request.getPath().contains("watch=true")
        && watchesToExpire.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return status(410, "Expired", "too old resource version (test)");
    }
    if ("GET".equals(request.getMethod()) && request.getPath().contains("watch=true")) {
      return watches.watch(request.getPath());
    }
    if ("POST".equals(request.getMethod())
        && request.getPath().startsWith("/apis/events.k8s.io/v1/")) {
      eventBodies.add(new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
    }
    Matcher m = EVICTION.matcher(request.getPath());
    if ("POST".equals(request.getMethod()) && m.matches()) {
      String body = request.getBody().readUtf8();
      evictionBodies.add(body);
      if (!isPolicyV1Eviction(body)) {
        return status(400, "BadRequest", "the eviction body must be a policy/v1 Eviction");
      }
      return evict(m.group(1), m.group(2));
    }
    if ("GET".equals(request.getMethod())
        && request.getPath().contains("fieldSelector=spec.nodeName")) {
      if (nodePodListsFail) {
        return status(503, "ServiceUnavailable", "listing pods by node fails (test)");
      }
      return podsOnNode(request);
    }
    MockResponse answer = logged(request);
    String plain =
        request.getPath().indexOf('?') < 0
            ? request.getPath()
            : request.getPath().substring(0, request.getPath().indexOf('?'));
    if ("GET".equals(request.getMethod())
        && answer.code() == 200
        && (("/api/v1/pods".equals(plain) && !bulkPods.isEmpty())
            || ("/api/v1/nodes".equals(plain) && !bulkNodes.isEmpty()))) {
      return withBulk(request, answer);
    }
    return answer;
  }

  /** Dispatches to CRUD mode, logging every change to a node or pod for the watches. */
  private MockResponse logged(RecordedRequest request) {
    String method = request.getMethod();
    String resource = WatchLog.resource(request.getPath());
    String path = request.getPath();
    String plain = path.indexOf('?') < 0 ? path : path.substring(0, path.indexOf('?'));
    MockResponse before = null;
    if ("DELETE".equals(method) && resource != null) {
      before = crud.handleGet(plain);
    }
    MockResponse response = crud.dispatch(request);
    if (response.code() >= 300 || "GET".equals(method)) {
      return response;
    }
    String body = new String(response.getBody().getBytes(), StandardCharsets.UTF_8);
    if (resource == null) {
      watches.sawWrite(body);
    } else if ("DELETE".equals(method)) {
      if (before != null && before.code() == 200) {
        watches.deleted(resource, new String(before.getBody().getBytes(), StandardCharsets.UTF_8));
      }
    } else {
      watches.changed(resource, "POST".equals(method) ? "ADDED" : "MODIFIED", body);
    }
    return response;
  }

  /** CRUD mode ignores pod fields in selectors; the real API server filters on spec.nodeName. */
  private MockResponse podsOnNode(RecordedRequest request) {
    String path = request.getPath();
    int q = path.indexOf('?');
    String node = null;
    for (String param : path.substring(q + 1).split("&")) {
      String decoded = URLDecoder.decode(param, StandardCharsets.UTF_8);
      if (decoded.startsWith("fieldSelector=spec.nodeName=")) {
        node = decoded.substring("fieldSelector=spec.nodeName=".length());
      }
    }
    MockResponse all = crud.handleGet(path.substring(0, q));
    if (all.code() != 200) {
      return all;
    }
    PodList list = json.unmarshal(all.getBody().readUtf8(), PodList.class);
    String wanted = node;
    list.setItems(
        list.getItems().stream()
            .filter(
                p ->
                    p.getSpec() != null
                        && wanted != null
                        && wanted.equals(p.getSpec().getNodeName()))
            .toList());
    return new MockResponse()
        .setResponseCode(200)
        .setHeader("Content-Type", "application/json")
        .setBody(json.asJson(list));
  }

  private MockResponse evict(String namespace, String name) {
    String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + name;
    MockResponse found = crud.handleGet(podPath);
    if (found.code() != 200) {
      return status(404, "NotFound", "pods \"" + name + "\" not found");
    }
    Pod pod = json.unmarshal(found.getBody().readUtf8(), Pod.class);
    Map<String, String> labels =
        pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    MockResponse budgets =
        crud.handleGet("/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets");
    if (budgets.code() == 200) {
      PodDisruptionBudgetList list =
          json.unmarshal(budgets.getBody().readUtf8(), PodDisruptionBudgetList.class);
      for (PodDisruptionBudget pdb : list.getItems()) {
        if (selects(pdb, labels) && !allowsDisruption(pdb)) {
          refusedEvictions.incrementAndGet();
          return status(
              429,
              "TooManyRequests",
              "Cannot evict pod as it would violate the pod's disruption budget "
                  + pdb.getMetadata().getName()
                  + ".");
        }
      }
    }
    watches.deleted("pods", json.asJson(pod));
    crud.handleDelete(podPath);
    evictions.incrementAndGet();
    return status(201, null, null);
  }

  private boolean isPolicyV1Eviction(String body) {
    try {
      Map<?, ?> fields = json.unmarshal(body, Map.class);
      return "policy/v1".equals(fields.get("apiVersion")) && "Eviction".equals(fields.get("kind"));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean selects(PodDisruptionBudget pdb, Map<String, String> labels) {
    if (pdb.getSpec() == null || pdb.getSpec().getSelector() == null) {
      return false;
    }
    Map<String, String> match = pdb.getSpec().getSelector().getMatchLabels();
    return match != null && labels.entrySet().containsAll(match.entrySet());
  }

  private static boolean allowsDisruption(PodDisruptionBudget pdb) {
    return pdb.getStatus() != null
        && pdb.getStatus().getDisruptionsAllowed() != null
        && pdb.getStatus().getDisruptionsAllowed() > 0;
  }

  private MockResponse status(int code, String reason, String message) {
    Status status =
        new StatusBuilder()
            .withCode(code)
            .withStatus(code < 300 ? "Success" : "Failure")
            .withReason(reason)
            .withMessage(message)
            .build();
    return new MockResponse()
        .setResponseCode(code)
        .setHeader("Content-Type", "application/json")
        .setBody(json.asJson(status));
  }

  @Override
  public void close() {
    server.destroy();
  }
}
