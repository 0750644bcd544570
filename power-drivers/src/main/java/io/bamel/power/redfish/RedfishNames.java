package io.bamel.power.redfish;

/**
 * Every Redfish name the driver reads or writes, in one place: properties, annotations, actions,
 * enumerated values, URI segments and HTTP headers, spelled as DMTF publishes them.
 *
 * <p>Contract: these strings go on the wire; they never change in a refactor. {@code
 * RedfishNamesTest} reads every constant and finds each in DMTF's JSON schemas (a property, an
 * action, an enum value, a definition, a URI), the HTTP headers ({@code HEADER_*}) in a golden list
 * from DSP0266 and RFC 9110, so that renaming one fails a test rather than every real BMC.
 */
public final class RedfishNames {

  private RedfishNames() {}

  // --- URIs (DSP0266; the schemas' "uris") ---

  /** The service root. */
  public static final String SERVICE_ROOT = "/redfish/v1";

  /** The systems collection below the service root. */
  public static final String SYSTEMS_PATH = "/Systems";

  /** A system below the service root, followed by its id. */
  public static final String SYSTEM_PATH_PREFIX = "/Systems/";

  /** The sessions collection below the service root. */
  public static final String SESSIONS_PATH = "/SessionService/Sessions";

  /** The reset action below a system, where the system does not give its target. */
  public static final String RESET_ACTION_PATH = "/Actions/ComputerSystem.Reset";

  // --- Common properties and annotations ---

  /** A resource's or link's URI. */
  public static final String ODATA_ID = "@odata.id";

  /** A resource's ETag in its body. */
  public static final String ODATA_ETAG = "@odata.etag";

  /** A collection's members. */
  public static final String MEMBERS = "Members";

  /** A resource's links to others. */
  public static final String LINKS = "Links";

  /** A resource's id. */
  public static final String ID = "Id";

  /** A resource's or parameter's name. */
  public static final String NAME = "Name";

  /** A resource's status. */
  public static final String STATUS = "Status";

  /** Its state. */
  public static final String STATE = "State";

  /** {@code State} of a resource that is not there. */
  public static final String ABSENT = "Absent";

  /** The allowable-values annotation's suffix ({@code Property@Redfish.AllowableValues}). */
  public static final String ALLOWABLE_VALUES_ANNOTATION = "@Redfish.AllowableValues";

  // --- Service root and sessions ---

  /** The service root's systems collection. */
  public static final String SYSTEMS = "Systems";

  /** The service root's SessionService. */
  public static final String SESSION_SERVICE = "SessionService";

  /** The service root's {@code Links.Sessions}. */
  public static final String SESSIONS = "Sessions";

  /** A login's user. */
  public static final String USER_NAME = "UserName";

  /** A login's password. */
  public static final String PASSWORD = "Password";

  // --- ComputerSystem: power ---

  /** The system's power state. */
  public static final String POWER_STATE = "PowerState";

  /** {@code PowerState} on. */
  public static final String STATE_ON = "On";

  /** {@code PowerState} off. */
  public static final String STATE_OFF = "Off";

  /** {@code PowerState} switching on. */
  public static final String STATE_POWERING_ON = "PoweringOn";

  /** {@code PowerState} switching off. */
  public static final String STATE_POWERING_OFF = "PoweringOff";

  /** A resource's actions. */
  public static final String ACTIONS = "Actions";

  /** The system's reset action. */
  public static final String RESET_ACTION = "#ComputerSystem.Reset";

  /** An action's URI. */
  public static final String TARGET = "target";

  /** The reset action's parameter. */
  public static final String RESET_TYPE = "ResetType";

  /** The link to an action's ActionInfo. */
  public static final String ACTION_INFO = "@Redfish.ActionInfo";

  /** The resource an action's {@code @Redfish.ActionInfo} links to. */
  public static final String ACTION_INFO_RESOURCE = "ActionInfo";

  /** An ActionInfo's parameters. */
  public static final String PARAMETERS = "Parameters";

  /** A parameter's allowable values in an ActionInfo. */
  public static final String ALLOWABLE_VALUES = "AllowableValues";

  /** {@code ResetType} values (DMTF's Resource schema). */
  public static final String RESET_ON = "On";

  /** Cut the power. */
  public static final String RESET_FORCE_OFF = "ForceOff";

  /** Ask the OS to shut down. */
  public static final String RESET_GRACEFUL_SHUTDOWN = "GracefulShutdown";

  /** Ask the OS to restart. */
  public static final String RESET_GRACEFUL_RESTART = "GracefulRestart";

  /** Restart without asking. */
  public static final String RESET_FORCE_RESTART = "ForceRestart";

  /** A non-maskable interrupt. */
  public static final String RESET_NMI = "Nmi";

  /** Switch on. */
  public static final String RESET_FORCE_ON = "ForceOn";

  /** The power button. */
  public static final String RESET_PUSH_POWER_BUTTON = "PushPowerButton";

  /** Off, then on. */
  public static final String RESET_POWER_CYCLE = "PowerCycle";

  /** Suspend. */
  public static final String RESET_SUSPEND = "Suspend";

  /** Pause. */
  public static final String RESET_PAUSE = "Pause";

  /** Resume. */
  public static final String RESET_RESUME = "Resume";

  /** Off, then on, including the auxiliary power. */
  public static final String RESET_FULL_POWER_CYCLE = "FullPowerCycle";

  // --- ComputerSystem: boot override ---

  /** The system's boot settings. */
  public static final String BOOT = "Boot";

  /** The override's device. */
  public static final String BOOT_SOURCE_OVERRIDE_TARGET = "BootSourceOverrideTarget";

  /** Once, continuous or disabled. */
  public static final String BOOT_SOURCE_OVERRIDE_ENABLED = "BootSourceOverrideEnabled";

  /** UEFI or Legacy. */
  public static final String BOOT_SOURCE_OVERRIDE_MODE = "BootSourceOverrideMode";

  /** Boot from the network. */
  public static final String BOOT_PXE = "Pxe";

  /** Boot from disk. */
  public static final String BOOT_HDD = "Hdd";

  /** For the next boot only. */
  public static final String BOOT_ONCE = "Once";

  /** For every boot. */
  public static final String BOOT_CONTINUOUS = "Continuous";

  // --- Power draw ---

  /** The system's (and a chassis' contained) chassis. */
  public static final String CHASSIS = "Chassis";

  /** The chassis a chassis contains. */
  public static final String CONTAINS = "Contains";

  /** A chassis' environment metrics. */
  public static final String ENVIRONMENT_METRICS = "EnvironmentMetrics";

  /** Their power reading. */
  public static final String POWER_WATTS = "PowerWatts";

  /** A sensor excerpt's value. */
  public static final String READING = "Reading";

  /** A chassis' power subsystem. */
  public static final String POWER_SUBSYSTEM = "PowerSubsystem";

  /** Its (and the deprecated Power resource's) power supplies. */
  public static final String POWER_SUPPLIES = "PowerSupplies";

  /** A power supply's metrics. */
  public static final String METRICS = "Metrics";

  /** A power supply's input power (PowerSupplyMetrics). */
  public static final String INPUT_POWER_WATTS = "InputPowerWatts";

  /** A chassis' deprecated Power resource. */
  public static final String POWER = "Power";

  /** Its power controls. */
  public static final String POWER_CONTROL = "PowerControl";

  /** Their consumed power. */
  public static final String POWER_CONSUMED_WATTS = "PowerConsumedWatts";

  // --- Inspection ---

  /** The system's manufacturer. */
  public static final String MANUFACTURER = "Manufacturer";

  /** The system's or a processor's model. */
  public static final String MODEL = "Model";

  /** The system's serial number. */
  public static final String SERIAL_NUMBER = "SerialNumber";

  /** The system's UUID. */
  public static final String UUID = "UUID";

  /** The system's BIOS version. */
  public static final String BIOS_VERSION = "BiosVersion";

  /** The system's processor summary. */
  public static final String PROCESSOR_SUMMARY = "ProcessorSummary";

  /** Its count. */
  public static final String COUNT = "Count";

  /** The system's memory summary. */
  public static final String MEMORY_SUMMARY = "MemorySummary";

  /** Its total. */
  public static final String TOTAL_SYSTEM_MEMORY_GIB = "TotalSystemMemoryGiB";

  /** The system's processors. */
  public static final String PROCESSORS = "Processors";

  /** A processor's type. */
  public static final String PROCESSOR_TYPE = "ProcessorType";

  /** {@code ProcessorType} of a CPU. */
  public static final String PROCESSOR_CPU = "CPU";

  /** {@code ProcessorType} of a GPU. */
  public static final String PROCESSOR_GPU = "GPU";

  /** The system's Ethernet interfaces. */
  public static final String ETHERNET_INTERFACES = "EthernetInterfaces";

  /** An interface's current MAC. */
  public static final String MAC_ADDRESS = "MACAddress";

  /** An interface's burned-in MAC. */
  public static final String PERMANENT_MAC_ADDRESS = "PermanentMACAddress";

  /** The system's managers. */
  public static final String MANAGED_BY = "ManagedBy";

  /** A manager's host interfaces. */
  public static final String HOST_INTERFACES = "HostInterfaces";

  /** A host interface's host-side NICs (HostInterface schema). */
  public static final String HOST_ETHERNET_INTERFACES = "HostEthernetInterfaces";

  // --- Error bodies (DMTF's redfish-error schema) ---

  /** The error object. */
  public static final String ERROR = "error";

  /** Its code. */
  public static final String ERROR_CODE = "code";

  /** Its message. */
  public static final String ERROR_MESSAGE = "message";

  /** Its messages. */
  public static final String EXTENDED_INFO = "@Message.ExtendedInfo";

  /** A message's text. */
  public static final String MESSAGE = "Message";

  // --- HTTP headers (DSP0266 and RFC 9110; not in the schemas) ---

  /** A session's token, sent with every request. */
  public static final String HEADER_X_AUTH_TOKEN = "X-Auth-Token";

  /** The OData version, sent with every request. */
  public static final String HEADER_ODATA_VERSION = "OData-Version";

  /** The value of {@link #HEADER_ODATA_VERSION}. */
  public static final String HEADER_ODATA_VERSION_VALUE = "4.0";

  /** The media types accepted. */
  public static final String HEADER_ACCEPT = "Accept";

  /** The value of {@link #HEADER_ACCEPT}. */
  public static final String HEADER_ACCEPT_VALUE = "application/json";

  /** HTTP Basic credentials. */
  public static final String HEADER_AUTHORIZATION = "Authorization";

  /** A created session's URI. */
  public static final String HEADER_LOCATION = "Location";

  /** A resource's entity tag. */
  public static final String HEADER_ETAG = "ETag";

  /** A conditional PATCH's entity tag. */
  public static final String HEADER_IF_MATCH = "If-Match";

  /** A connection's idle limit (RFC 2068). */
  public static final String HEADER_KEEP_ALIVE = "Keep-Alive";

  /** A connection's persistence. */
  public static final String HEADER_CONNECTION = "Connection";

  /** {@link #HEADER_CONNECTION}'s value for a persistent HTTP/1.0 connection. */
  public static final String HEADER_CONNECTION_KEEP_ALIVE = "keep-alive";
}
