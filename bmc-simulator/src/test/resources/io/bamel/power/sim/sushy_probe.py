"""Reads (and optionally changes) a Redfish system with Ironic's sushy; prints what sushy sees.

Usage: sushy_probe.py BASE_URL CA_FILE [read|on|force-off|pxe-once]
The user and password come from SIM_USER and SIM_PASSWORD (never from the command line).
"""
import json
import os
import sys

import sushy


def plain(value):
    return getattr(value, "value", value)


root = sushy.Sushy(sys.argv[1], username=os.environ["SIM_USER"],
                   password=os.environ["SIM_PASSWORD"], verify=sys.argv[2])
system = root.get_system()
action = sys.argv[3] if len(sys.argv) > 3 else "read"
if action == "on":
    system.reset_system(sushy.RESET_ON)
elif action == "force-off":
    system.reset_system(sushy.RESET_FORCE_OFF)
elif action == "pxe-once":
    system.set_system_boot_options(sushy.BOOT_SOURCE_TARGET_PXE,
                                   enabled=sushy.BOOT_SOURCE_ENABLED_ONCE)
elif action != "read":
    sys.exit("unknown action " + action)
system.refresh()
print(json.dumps({
    "powerState": plain(system.power_state),
    "bootTarget": plain(system.boot.target),
    "bootEnabled": plain(system.boot.enabled),
    "serial": system.serial_number,
    "resetTypes": sorted(plain(t) for t in system.get_allowed_reset_system_values()),
}))
