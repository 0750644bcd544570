#!/bin/sh
# chassis_control program for ipmi_sim (test fixture): keeps the power state in a file and
# appends every power value set to STATEFILE.log (one "0" or "1" a line).
#   chassis-control.sh STATEFILE get power|boot ...
#   chassis-control.sh STATEFILE set power 0|1 [reset 1] [boot pxe|default|none] ...
# "get" prints "<parm>:<value>" per parameter; "set" prints nothing on success.
state="$1"
shift
op="$1"
shift
case "$op" in
  get)
    while [ -n "$1" ]; do
      case "$1" in
        power) echo "power:$(cat "$state" 2>/dev/null || echo 0)" ;;
        boot) echo "boot:$(cat "$state.boot" 2>/dev/null || echo default)" ;;
        *) echo "Invalid parameter: $1"; exit 1 ;;
      esac
      shift
    done
    ;;
  set)
    while [ -n "$1" ]; do
      parm="$1"
      val="$2"
      shift 2
      case "$parm" in
        power)
          printf '%s\n' "$val" > "$state"
          printf '%s\n' "$val" >> "$state.log"
          ;;
        boot) printf '%s\n' "$val" > "$state.boot" ;;
        reset|identify) ;;
        *) echo "Invalid parameter: $parm"; exit 1 ;;
      esac
    done
    ;;
  check) exit 1 ;;
  *) echo "Unknown operation: $op"; exit 1 ;;
esac
