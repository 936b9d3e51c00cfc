#!/usr/bin/env bash
# Builds the project and runs one benchmark main class with the reactor's own classes (never a
# stale snapshot from ~/.m2). Usage: flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark [args]
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?benchmark class, e.g. SourceBenchmark}"
shift
mvn -B -q -pl flink-connector-iggy-e2e -am package -DskipTests
mvn -B -q -pl flink-connector-iggy-e2e dependency:build-classpath -Dmdep.outputFile=target/benchmark.cp
deps=$(tr ':' '\n' < target/benchmark.cp | grep -v '/flink-connector-iggy' | paste -sd:)
own=flink-connector-iggy-e2e/target/classes:flink-connector-iggy/target/classes:flink-connector-iggy-test-utils/target/classes
exec java -Xmx6g -cp "$own:$deps" "org.apache.flink.connector.iggy.benchmark.$name" "$@"
