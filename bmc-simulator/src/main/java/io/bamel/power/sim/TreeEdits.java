package io.bamel.power.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Changes a vendor profile makes to a published tree, read from the profile's data file and applied
 * in this order: {@code rename} (a resource and everything below it moves, every link follows),
 * {@code remove} (resources and every link to them), {@code add} (resources, linked from their
 * parent collection), {@code set} and {@code unset} (values at JSON pointers of a resource), then
 * {@code trailingSlash} (every link ends with {@code /}). Paths and values may name {@code {root}},
 * {@code {system}}, {@code {chassis}} and {@code {manager}}: the paths found in the published tree
 * (after the renames). An edit of a resource the tree lacks is skipped.
 *
 * @param rename old path to new path
 * @param remove paths of resources to remove
 * @param add new resources by path
 * @param set per resource, JSON pointer to value
 * @param unset per resource, JSON pointers to remove
 * @param trailingSlash whether every link ends with {@code /} (iLO)
 */
record TreeEdits(
    Map<String, String> rename,
    List<String> remove,
    Map<String, ObjectNode> add,
    Map<String, Map<String, JsonNode>> set,
    Map<String, List<String>> unset,
    boolean trailingSlash) {

  /** No change. */
  static final TreeEdits NONE = new TreeEdits(null, null, null, null, null, false);

  /** The edits that put a system in a blade enclosure ({@code blade.yaml}). */
  static final TreeEdits BLADE = SimVocabulary.readYaml("blade.yaml", TreeEdits.class);

  /** Missing parts are empty; maps keep their order. */
  TreeEdits {
    rename = rename == null ? Map.of() : new LinkedHashMap<>(rename);
    remove = remove == null ? List.of() : List.copyOf(remove);
    add = add == null ? Map.of() : new LinkedHashMap<>(add);
    set = set == null ? Map.of() : new LinkedHashMap<>(set);
    unset = unset == null ? Map.of() : new LinkedHashMap<>(unset);
  }
}
