package io.bamel.power.sim;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.bamel.power.BmcPowerState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Every Redfish name the simulator needs (JSON pointers into published resources, request fields,
 * headers, values, message ids), read from the data file {@code redfish-wire.yaml} beside this
 * class. The simulator's Java spells no Redfish name: a rename in Java cannot change the wire, and
 * a name shared by mistake with the driver's Java fails {@code SimWireNamesTest}.
 *
 * @param root the service root's path ({@code /redfish/v1})
 * @param odataVersion the OData version header's value
 * @param versionsPath the path of the protocol version document
 * @param versions the protocol version document
 * @param odata the OData annotations
 * @param discover where the system, chassis, manager and sessions are found in a published tree
 * @param state the pointers of the state overlaid on published resources
 * @param request the pointers read from request bodies
 * @param powerStates the published name of each power state
 * @param resetEffects what each reset type does (a type not listed restarts, ending on)
 * @param fullResetTypes the reset types of a typical server BMC
 * @param initialBoot the boot override and mode of a new system
 * @param headers the HTTP headers the simulator reads and writes
 * @param basicScheme the Basic authorization scheme's prefix
 * @param jsonMediaType the media type of every answer
 * @param errors the message ids of error answers
 * @param operations what a GET counts as, by the schema namespace of its {@code @odata.type}
 */
record SimVocabulary(
    String root,
    String odataVersion,
    String versionsPath,
    ObjectNode versions,
    Odata odata,
    Discover discover,
    State state,
    Request request,
    Map<BmcPowerState, String> powerStates,
    Map<String, ResetEffect> resetEffects,
    List<String> fullResetTypes,
    InitialBoot initialBoot,
    Headers headers,
    String basicScheme,
    String jsonMediaType,
    Errors errors,
    Map<String, SimOperation> operations) {

  /** Reads the simulator's YAML data files; JSON pointers are written as strings. */
  static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
          .registerModule(
              new SimpleModule()
                  .addDeserializer(
                      JsonPointer.class,
                      new StdDeserializer<>(JsonPointer.class) {
                        @Override
                        public JsonPointer deserialize(JsonParser parser, DeserializationContext c)
                            throws IOException {
                          return JsonPointer.compile(parser.getValueAsString());
                        }
                      }));

  /** The vocabulary of {@code redfish-wire.yaml}. */
  static final SimVocabulary WIRE = load("redfish-wire.yaml");

  /** What a reset type does to the system's power. */
  enum ResetEffect {
    /** Turns it on (already on: refused). */
    ON,
    /** Turns it off at once (already off: refused). */
    OFF,
    /** Asks the operating system to shut down (already off: refused). */
    GRACEFUL_OFF,
    /** Presses the power button: on when off, off when on. */
    TOGGLE,
    /** Restarts or cycles: ends on. */
    RESTART
  }

  record Odata(
      String id,
      String type,
      String etag,
      String countSuffix,
      String members,
      JsonPointer resourceId) {}

  record Discover(
      JsonPointer systems,
      JsonPointer firstMember,
      JsonPointer systemChassis,
      JsonPointer systemManager,
      JsonPointer sessions,
      JsonPointer sessionService,
      JsonPointer resetTarget,
      JsonPointer resetActionInfo,
      JsonPointer ethernetInterfaces) {}

  record State(
      JsonPointer powerState,
      JsonPointer bootTarget,
      JsonPointer bootTargetValues,
      JsonPointer bootEnabled,
      JsonPointer bootMode,
      JsonPointer serialNumber,
      JsonPointer uuid,
      JsonPointer resetInline,
      JsonPointer actionInfoValues,
      JsonPointer sessionEnabled,
      JsonPointer sessionTimeout,
      List<JsonPointer> rootWithoutSessions,
      List<JsonPointer> macs,
      List<JsonPointer> watts,
      List<JsonPointer> sharedWatts,
      JsonPointer sessionUser,
      JsonPointer sessionCreated,
      JsonPointer sessionExpires) {}

  record Request(
      JsonPointer boot, JsonPointer resetType, JsonPointer userName, JsonPointer password) {}

  record InitialBoot(String target, String enabled, String mode) {}

  record Headers(
      String token,
      String location,
      String odataVersion,
      String ifMatch,
      String etag,
      String authenticate,
      String retryAfter,
      String authorization,
      String contentType) {}

  record Errors(
      String missing,
      String unavailable,
      String noValidSession,
      String loginFailed,
      String malformed,
      String preconditionRequired,
      String preconditionFailed,
      String notInList,
      String inUse,
      String parameterMissing,
      String parameterNotSupported,
      String noOperation) {}

  /** The effect of reset type {@code type}. */
  ResetEffect effectOf(String type) {
    return resetEffects.getOrDefault(type, ResetEffect.RESTART);
  }

  /** The operation a GET of a resource of {@code odataType} counts as, or {@code null}. */
  SimOperation operationOf(String odataType) {
    if (odataType == null || odataType.length() < 2) {
      return null;
    }
    int dot = odataType.indexOf('.');
    return operations.get(odataType.substring(1, dot < 0 ? odataType.length() : dot));
  }

  /** Reads a YAML resource beside this class as {@code type}. */
  static <T> T readYaml(String name, Class<T> type) {
    try (InputStream in = SimVocabulary.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing simulator data file " + name);
      }
      return YAML.readValue(in, type);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read simulator data file " + name, e);
    }
  }

  private static SimVocabulary load(String name) {
    return readYaml(name, SimVocabulary.class);
  }
}
