#!/usr/bin/env bash
# Builds the project and runs one benchmark main class on the reactor's own jars.
# Usage: flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark [args]
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?benchmark class, e.g. SourceBenchmark}"
shift
mvn -B -q -pl flink-connector-iggy-e2e -am package dependency:build-classpath -DskipTests \
    -Dmdep.outputFile=target/benchmark.cp
exec java -Xmx6g -cp "flink-connector-iggy-e2e/target/classes:$(cat flink-connector-iggy-e2e/target/benchmark.cp)" \
    "org.apache.flink.connector.iggy.benchmark.$name" "$@"
