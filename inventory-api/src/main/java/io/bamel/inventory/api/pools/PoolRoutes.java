package io.bamel.inventory.api.pools;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.ApiJson;
import io.bamel.inventory.api.http.Attempts;
import io.bamel.inventory.api.http.Bodies;
import io.bamel.inventory.api.http.MergePatch;
import io.bamel.inventory.api.http.Preconditions;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.javalin.http.Context;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Pools: {@code GET /api/v1/pools} (with member counts and status), and {@code GET | PUT | PATCH |
 * DELETE /api/v1/pools/{name}} on the pool's config. The ETag is the config's revision; DELETE is
 * refused (409) while nodes are members.
 */
public final class PoolRoutes {

  private final ApiContext api;

  public PoolRoutes(ApiContext api) {
    this.api = api;
  }

  public void list(Context ctx) {
    ApiContext.query(ctx, Set.of());
    api.requireSynced();
    long revision = api.cache.revision();
    List<PoolView> items =
        api.cache.pools().stream()
            .sorted(Comparator.comparing(Pool::name))
            .map(p -> PoolView.of(p, false))
            .toList();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("items", items);
    body.put("revision", revision);
    ApiContext.answer(ctx, 200, body);
  }

  public void get(Context ctx) {
    ApiContext.query(ctx, Set.of());
    String name = ApiContext.id(ctx, "name");
    api.requireSynced();
    Pool pool = api.cache.pool(name).orElseThrow(() -> Problems.notFound("no pool " + name));
    if (pool.config() != null) {
      ctx.header("ETag", Preconditions.etag(pool.configRevision()));
    }
    ApiContext.answer(ctx, 200, PoolView.of(pool, true));
  }

  public void put(Context ctx) {
    ApiContext.query(ctx, Set.of());
    String name = ApiContext.id(ctx, "name");
    PoolConfig config = ApiJson.convert(api.json(ctx, Bodies.JSON), PoolConfig.class);
    config.validate();
    Preconditions.IfMatch ifMatch = Preconditions.parse(ctx.header("If-Match"));
    boolean conditional = !(ifMatch instanceof Preconditions.IfMatch.None);
    boolean[] created = new boolean[1];
    long revision =
        Attempts.run(
            conditional,
            "pool " + name,
            () -> {
              Optional<Pool> current = api.store.getPool(name);
              long rev = current.map(Pool::configRevision).orElse(0L);
              var expected = Preconditions.check(ifMatch, rev, "pool " + name);
              created[0] = rev == 0;
              if (current.isPresent()
                  && current.get().config() != null
                  && java.util.Arrays.equals(
                      Codec.encode(current.get().config()), Codec.encode(config))) {
                return rev;
              }
              return api.store.putPoolConfig(
                  name, config, expected.isPresent() ? expected.getAsLong() : rev);
            });
    answerPool(ctx, name, revision, created[0] ? 201 : 200);
  }

  public void patch(Context ctx) {
    ApiContext.query(ctx, Set.of());
    String name = ApiContext.id(ctx, "name");
    JsonNode patch = api.json(ctx, Bodies.MERGE_PATCH);
    if (!patch.isObject()) {
      throw Problems.invalid("", "a merge patch of a pool must be a JSON object");
    }
    Preconditions.IfMatch ifMatch = Preconditions.parse(ctx.header("If-Match"));
    long revision =
        Attempts.run(
            !(ifMatch instanceof Preconditions.IfMatch.None),
            "pool " + name,
            () -> {
              Pool current =
                  api.store
                      .getPool(name)
                      .filter(p -> p.config() != null)
                      .orElseThrow(() -> Problems.notFound("no pool " + name));
              Preconditions.check(ifMatch, current.configRevision(), "pool " + name);
              JsonNode merged =
                  MergePatch.apply(Codec.mapper().valueToTree(current.config()), patch);
              PoolConfig next = ApiJson.convert(merged, PoolConfig.class);
              next.validate();
              if (java.util.Arrays.equals(Codec.encode(current.config()), Codec.encode(next))) {
                return current.configRevision();
              }
              return api.store.putPoolConfig(name, next, current.configRevision());
            });
    answerPool(ctx, name, revision, 200);
  }

  public void delete(Context ctx) {
    ApiContext.query(ctx, Set.of());
    String name = ApiContext.id(ctx, "name");
    Preconditions.IfMatch ifMatch = Preconditions.parse(ctx.header("If-Match"));
    Attempts.run(
        !(ifMatch instanceof Preconditions.IfMatch.None),
        "pool " + name,
        () -> {
          Pool current =
              api.store
                  .getPool(name)
                  .filter(p -> p.config() != null)
                  .orElseThrow(() -> Problems.notFound("no pool " + name));
          var expected = Preconditions.check(ifMatch, current.configRevision(), "pool " + name);
          if (!current.members().isEmpty()) {
            throw Problems.conflict(
                "pool "
                    + name
                    + " still has "
                    + current.members().size()
                    + " member(s), such as node "
                    + current.members().stream().sorted().findFirst().orElseThrow()
                    + "; move or delete them first");
          }
          api.store.deletePool(
              name, expected.isPresent() ? expected.getAsLong() : EtcdInventory.ANY_REVISION);
          return Boolean.TRUE;
        });
    long deadline = System.nanoTime() + api.options.readYourWrites().toNanos();
    while (api.cache.pool(name).map(p -> p.config() != null).orElse(false)
        && System.nanoTime() < deadline) {
      api.awaitCache(api.cache.revision() + 1);
    }
    ctx.status(204);
  }

  private void answerPool(Context ctx, String name, long revision, int status) {
    api.awaitCache(revision);
    Pool pool =
        api.cache
            .pool(name)
            .filter(p -> p.configRevision() == revision)
            .or(() -> api.store.getPool(name))
            .orElseThrow(() -> Problems.notFound("no pool " + name));
    ctx.header("ETag", Preconditions.etag(pool.configRevision()));
    ApiContext.answer(ctx, status, PoolView.of(pool, true));
  }
}
