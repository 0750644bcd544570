#!/usr/bin/env bash
# Lints the API's OpenAPI document with two independent linters, Redocly CLI and Spectral, and
# exits non-zero when either reports an error. Both are installed from npm's default registry, at
# the pinned versions below, into a local git-ignored directory (.tools/openapi-lint, or
# $BAMEL_LINT_DIR), once; later runs reuse them. Needs node (>= 18.18) and npm (Debian: nodejs npm).
# Rule sets: Redocly's `recommended` (redocly.yaml) and Spectral's `spectral:oas` (.spectral.yaml),
# at the repository root; any rule turned off is explained there.
set -euo pipefail

REDOCLY_VERSION=1.34.20
SPECTRAL_VERSION=6.16.3

root="$(cd "$(dirname "$0")/.." && pwd)"
# The served document (the resource plus each power interface's settings schema), as
# ApiFieldsGoldenTest writes it during the build; the resource alone when no test has run.
served="$root/inventory-api/target/openapi.json"
resource="$root/inventory-api/src/main/resources/io/bamel/inventory/api/openapi.json"
if [ -f "$served" ]; then default="$served"; else default="$resource"; fi
doc="${1:-$default}"
tools="${BAMEL_LINT_DIR:-$root/.tools/openapi-lint}"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "lint-openapi: $tool is missing (Debian: apt-get install nodejs npm)" >&2
    exit 2
  fi
done

if [ ! -x "$tools/node_modules/.bin/redocly" ] || [ ! -x "$tools/node_modules/.bin/spectral" ] \
  || [ "$(cat "$tools/.versions" 2>/dev/null)" != "$REDOCLY_VERSION $SPECTRAL_VERSION" ]; then
  mkdir -p "$tools"
  echo "lint-openapi: installing @redocly/cli@$REDOCLY_VERSION @stoplight/spectral-cli@$SPECTRAL_VERSION into $tools" >&2
  npm install --prefix "$tools" --no-audit --no-fund --no-save --loglevel=error \
    "@redocly/cli@$REDOCLY_VERSION" "@stoplight/spectral-cli@$SPECTRAL_VERSION" >&2
  echo "$REDOCLY_VERSION $SPECTRAL_VERSION" >"$tools/.versions"
fi

status=0
echo "lint-openapi: redocly lint $doc" >&2
(cd "$root" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  "$tools/node_modules/.bin/redocly" lint --config "$root/redocly.yaml" "$doc") || status=1
echo "lint-openapi: spectral lint $doc" >&2
(cd "$root" && "$tools/node_modules/.bin/spectral" lint --ruleset "$root/.spectral.yaml" \
  --fail-severity error "$doc") || status=1
exit $status
