#!/usr/bin/env bash
# Builds the project and runs benchmark main classes on the reactor's own jars.
# Usage: flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark [args]
#        flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark+SinkBenchmark  (each with defaults, one JVM each)
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?benchmark class, e.g. SourceBenchmark}"
shift
mvn -B -q -pl flink-connector-iggy-e2e -am package dependency:build-classpath -DskipTests \
    -Dmdep.outputFile=target/benchmark.cp
cp="flink-connector-iggy-e2e/target/classes:$(cat flink-connector-iggy-e2e/target/benchmark.cp)"
IFS='+' read -ra names <<< "$name"
if [ "${#names[@]}" -gt 1 ]; then
    set --
fi
for one in "${names[@]}"; do
    java -Xmx6g -cp "$cp" "org.apache.flink.connector.iggy.benchmark.$one" "$@"
done
