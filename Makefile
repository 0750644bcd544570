# bamel: the README's commands.
#   make test   installs what the tests need, then builds and runs every unit and integration test,
#               and lints the OpenAPI document with two linters (scripts/lint-openapi.sh)
#   make run    installs what is missing, builds, and starts bamel on an embedded etcd
#   make bench  runs the benchmarks (not part of make test)
SHELL := /bin/bash
JAVA_HOME := $(shell scripts/java-home.sh)
export JAVA_HOME
REVISION := $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
MVN := mvn -B -ntp -Dbamel.revision=$(REVISION)
BIN := deploy/target/bamel/bin/bamel

.PHONY: test run bench build format deps clean jdk

deps: jdk
	@scripts/ensure-deps.sh

# scripts/java-home.sh has said why on stderr when it found no JDK 21 or newer.
jdk:
	@test -n "$(JAVA_HOME)" || { echo "make: no JDK 21 or newer found; see the message above" >&2; exit 1; }

test: deps
	$(MVN) verify
	scripts/lint-openapi.sh

build: deps
	$(MVN) -DskipTests -DskipITs package

run: build
	$(BIN) demo

# The benchmarks run inside Maven's JVM (exec:java), so its heap is theirs: pinned here, after the
# caller's MAVEN_OPTS, so that a figure never depends on the shell it was started from
# (bmc-pass holds 100,000 simulated BMCs and the controllers reading them; docs/benchmarks.md).
BENCH_HEAP := -Xmx4g

bench: deps
	$(MVN) -DskipTests -DskipITs install
	MAVEN_OPTS="$$MAVEN_OPTS $(BENCH_HEAP)" $(MVN) -pl bench exec:java

format: jdk
	$(MVN) spotless:apply

clean: jdk
	$(MVN) clean
