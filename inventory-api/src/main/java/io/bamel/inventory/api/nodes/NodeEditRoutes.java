package io.bamel.inventory.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.ApiJson;
import io.bamel.inventory.api.http.Attempts;
import io.bamel.inventory.api.http.Bodies;
import io.bamel.inventory.api.http.MergePatch;
import io.bamel.inventory.api.http.Preconditions;
import io.bamel.inventory.api.http.Problem;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.api.security.Access;
import io.bamel.inventory.api.security.Caller;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.NotFoundException;
import io.bamel.inventory.store.SpecEdit;
import io.bamel.inventory.sync.PowerControlFields;
import io.bamel.inventory.sync.ReservedLabels;
import io.bamel.inventory.sync.SpecRules;
import io.javalin.http.Context;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The DCIM writes of one node: {@code PUT} (create, or replace the hardware and location fields),
 * {@code PATCH} (JSON Merge Patch) and {@code DELETE}. Each reads the node fresh from etcd, checks
 * {@code If-Match}, the power-field rule ({@link SpecRules}: a PUT that leaves {@code powerState}
 * or {@code powerPolicy} out keeps the stored values; an explicit different value is 400) and the
 * unique fields (serial, MAC, management address: 409 naming the node that has it), the
 * power-control rule ({@link PowerControlFields}: creating a node with them or changing them needs
 * scope bmc, else 403 naming the fields) and the power-off command names the server defines (400),
 * then writes with compare-and-swap at the revision it read, recording the caller, the request id
 * and the fields changed (power-control fields named apart) in the node's events. Answers after the
 * cache shows the write, so a following read sees it.
 */
public final class NodeEditRoutes {

  private final ApiContext api;

  public NodeEditRoutes(ApiContext api) {
    this.api = api;
  }

  public void put(Context ctx) {
    ApiContext.query(ctx, Set.of());
    String id = ApiContext.id(ctx, "id");
    NodeSpec incoming = ApiJson.convert(api.json(ctx, Bodies.JSON), NodeSpec.class);
    Preconditions.IfMatch ifMatch = Preconditions.parse(ctx.header("If-Match"));
    boolean createOnly = "*".equals(trim(ctx.header("If-None-Match")));
    Caller caller = Caller.of(ctx);
    boolean conditional = !(ifMatch instanceof Preconditions.IfMatch.None) || createOnly;
    record Written(long revision, NodeSpec spec, boolean created) {}
    Written written =
        Attempts.run(
            conditional,
            "node " + id,
            () -> {
              Optional<Node> current = api.store.getNode(id);
              long revision = current.map(Node::specRevision).orElse(0L);
              Preconditions.check(ifMatch, revision, "node " + id);
              if (createOnly && current.isPresent()) {
                throw Problems.preconditionFailed("node " + id + " exists (If-None-Match: *)");
              }
              NodeSpec before = current.map(Node::spec).orElse(null);
              List<FieldError> power = SpecRules.powerFieldChanges(id, before, incoming, true);
              if (!power.isEmpty()) {
                throw Problems.invalid(powerDetail("PUT", id), power);
              }
              NodeSpec next =
                  before == null
                      ? incoming
                      : SpecRules.keepPowerFields(incoming, before)
                          .withUnknownFields(before.extensions());
              List<String> control = checkPowerControl(caller, id, before, next);
              if (before == null) {
                long rev =
                    api.store.createNode(
                        id,
                        next,
                        caller.event(
                            api.clock(), "created", "PUT" + PowerControlFields.eventNote(control)));
                return new Written(rev, next, true);
              }
              long rev =
                  api.store.replaceSpec(
                      id,
                      revision,
                      next,
                      caller.event(
                          api.clock(),
                          "updated",
                          SpecRules.changeNote(before, next)
                              + PowerControlFields.eventNote(control)));
              return new Written(rev, next, false);
            });
    answerNode(ctx, id, written.revision(), written.created() ? 201 : 200);
  }

  public void patch(Context ctx) {
    ApiContext.query(ctx, Set.of());
    String id = ApiContext.id(ctx, "id");
    JsonNode patch = api.json(ctx, Bodies.MERGE_PATCH);
    if (!patch.isObject()) {
      throw Problems.invalid("", "a merge patch of a node must be a JSON object");
    }
    Preconditions.IfMatch ifMatch = Preconditions.parse(ctx.header("If-Match"));
    Caller caller = Caller.of(ctx);
    long revision =
        Attempts.run(
            !(ifMatch instanceof Preconditions.IfMatch.None),
            "node " + id,
            () ->
                editExisting(
                    api,
                    id,
                    current -> {
                      Preconditions.check(ifMatch, current.specRevision(), "node " + id);
                      // Fields a newer bamel stored (the spec's unknown fields) are kept, not
                      // patched; the power interfaces' settings are patched like any field.
                      Map<String, Object> kept = current.spec().unknownFields();
                      ObjectNode base = Codec.mapper().valueToTree(current.spec());
                      base.remove(kept.keySet());
                      NodeSpec patched =
                          ApiJson.convert(MergePatch.apply(base, patch), NodeSpec.class)
                              .withUnknownFields(kept);
                      List<FieldError> power =
                          SpecRules.powerFieldChanges(id, current.spec(), patched, false);
                      if (!power.isEmpty()) {
                        throw Problems.invalid(powerDetail("PATCH", id), power);
                      }
                      NodeSpec next = SpecRules.keepPowerFields(patched, current.spec());
                      List<String> control = checkPowerControl(caller, id, current.spec(), next);
                      return new SpecEdit.Result(
                          next,
                          caller.event(
                              api.clock(),
                              "updated",
                              SpecRules.changeNote(current.spec(), next)
                                  + PowerControlFields.eventNote(control)));
                    }));
    answerNode(ctx, id, revision, 200);
  }

  /**
   * {@link io.bamel.inventory.store.EtcdInventory#editSpec} of a node that must exist, for the
   * routes of {@code api}: one read and one guarded write; 404 when there is no such node.
   */
  static long editExisting(ApiContext api, String id, SpecEdit edit) {
    try {
      return api.store.editSpec(id, edit);
    } catch (NotFoundException e) {
      throw Problems.notFound("no node " + id);
    }
  }

  public void delete(Context ctx) {
    Map<String, String> query = ApiContext.query(ctx, Set.of("force"));
    String id = ApiContext.id(ctx, "id");
    boolean force = ApiContext.flag(query, "force");
    Preconditions.IfMatch ifMatch = Preconditions.parse(ctx.header("If-Match"));
    if (force) {
      Caller caller = Caller.of(ctx);
      if (!Access.ADMIN.grantedBy(caller.principal().scope())) {
        throw Problems.forbidden("DELETE with force=true needs the admin scope");
      }
      if (ifMatch instanceof Preconditions.IfMatch.None) {
        throw Problems.preconditionRequired(
            "DELETE with force=true needs If-Match with the node's ETag, so that what is deleted"
                + " is what was looked at");
      }
    }
    Attempts.run(
        !(ifMatch instanceof Preconditions.IfMatch.None),
        "node " + id,
        () -> {
          Node current =
              api.store.getNode(id).orElseThrow(() -> Problems.notFound("no node " + id));
          OptionalLong expected =
              Preconditions.check(ifMatch, current.specRevision(), "node " + id);
          if (!force && SpecRules.isOn(current) && SpecRules.isManaged(current)) {
            throw Problems.conflict(
                "node "
                    + id
                    + " is on and bamel drives its power; power it off first (POST"
                    + " /api/v1/nodes/"
                    + id
                    + "/power {\"state\":\"off\"}) or delete with force=true");
          }
          if (!api.store.deleteNode(id, expected.orElse(current.specRevision()))) {
            throw Problems.notFound("no node " + id);
          }
          return Boolean.TRUE;
        });
    awaitGone(id);
    ctx.status(204);
  }

  private void awaitGone(String id) {
    long deadline = System.nanoTime() + api.options.readYourWrites().toNanos();
    while (api.cache.node(id).isPresent() && System.nanoTime() < deadline) {
      api.awaitCache(api.cache.revision() + 1);
    }
  }

  /**
   * Refuses (403) a caller without scope bmc that creates a node with power-control fields or
   * changes them, validates {@code next} (400), refuses reserved labels added or changed ({@link
   * ReservedLabels}, 400 naming them, whatever the scope) and a power-off command name the server
   * does not define (400). Returns the power-control fields changed.
   */
  private List<String> checkPowerControl(Caller caller, String id, NodeSpec before, NodeSpec next) {
    List<String> control = PowerControlFields.changed(before, next);
    boolean mayChange = Access.BMC.grantedBy(caller.principal().scope());
    if (!PowerControlFields.allowed(mayChange, control)) {
      throw forbidden(caller.principal().name(), id, before == null, control);
    }
    next.validate();
    List<String> reserved = ReservedLabels.changed(before, next);
    if (!reserved.isEmpty()) {
      throw Problems.invalid(
          "reserved labels " + String.join(", ", reserved) + " may not be set through the API",
          ReservedLabels.errors(reserved));
    }
    List<FieldError> command =
        PowerControlFields.unknownCommand(next, api.options.powerOffCommands());
    if (!command.isEmpty()) {
      throw Problems.invalid("the request has an invalid field", command);
    }
    return control;
  }

  private void answerNode(Context ctx, String id, long revision, int status) {
    api.awaitCache(revision);
    Node node = api.cache.node(id).orElse(null);
    ctx.header("ETag", Preconditions.etag(revision));
    if (node != null && node.specRevision() == revision) {
      ApiContext.answerBytes(ctx, status, api.nodeJson.of(node));
    } else {
      Node fresh = api.store.getNode(id).orElseThrow(() -> Problems.notFound("no node " + id));
      ApiContext.answer(ctx, status, NodeView.of(fresh));
    }
  }

  private static String powerDetail(String method, String id) {
    return method
        + " does not change powerState or powerPolicy: they are set through POST /api/v1/nodes/"
        + id
        + "/power"
        + (method.equals("PUT") ? "; a PUT that leaves them out keeps the stored values" : "");
  }

  /** The 403 answer to {@code caller} setting {@code fields} of node {@code id}. */
  private static ApiException forbidden(
      String caller, String id, boolean create, List<String> fields) {
    return new ApiException(
        Problem.of(
                403,
                "forbidden",
                "Forbidden",
                PowerControlFields.refusal(caller, id, create, fields))
            .withErrors(PowerControlFields.fieldErrors(fields))
            .with("requiredScope", Access.BMC.scopeName()));
  }

  private static String trim(String s) {
    return s == null ? null : s.trim();
  }
}
