#!/usr/bin/env bash
# Installs what bamel's tests and demo need when it is missing: the etcd server and client,
# ipmitool and OpenIPMI's ipmi_sim, freeipmi's ipmipower and ipmi-chassis (the IPMI cross-checks),
# Ironic's sushy (Debian's python3-sushy, for /usr/bin/python3) and DMTF's redfishtool (the Redfish
# cross-checks), Chromium with its WebDriver (the console's browser tests),
# Prometheus (the dashboard's queries are tested against it) and node with npm (the OpenAPI
# linters; Debian packages), and checks for Maven. Nothing downloads a browser at test time.
# As root it installs them with apt-get (after apt-get update); otherwise it names the packages.
set -euo pipefail

need=()
command -v etcd >/dev/null 2>&1 || [ -n "${BAMEL_ETCD_BIN:-}" ] || need+=(etcd-server)
command -v etcdctl >/dev/null 2>&1 || need+=(etcd-client)
command -v ipmitool >/dev/null 2>&1 || need+=(ipmitool)
command -v ipmi_sim >/dev/null 2>&1 || need+=(openipmi)
command -v ipmipower >/dev/null 2>&1 || need+=(freeipmi-tools)
command -v redfishtool >/dev/null 2>&1 || need+=(redfishtool)
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import sushy' >/dev/null 2>&1 || need+=(python3-sushy)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
command -v prometheus >/dev/null 2>&1 || need+=(prometheus)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
command -v mvn >/dev/null 2>&1 || need+=(maven)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-deps: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "ensure-deps: missing packages: ${need[*]}" >&2
  echo "ensure-deps: install them, for example: sudo apt-get update && sudo apt-get install ${need[*]}" >&2
  exit 1
fi
