#!/usr/bin/env bash
# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Builds the project and runs benchmark main classes on the reactor's own jars.
# Usage: flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark [args]
#        flink-connector-iggy-e2e/run-benchmark.sh SourceBenchmark+SinkBenchmark  (each with defaults, one JVM each)
# BENCHMARK_JAVA_OPTS adds JVM options, e.g. a profiler agent (docs/development/testing.md, "Profiling").
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
    # shellcheck disable=SC2086 # the options are words on purpose
    java -Xms6g -Xmx6g -XX:+AlwaysPreTouch ${BENCHMARK_JAVA_OPTS:-} -cp "$cp" "org.apache.flink.connector.iggy.benchmark.$one" "$@"
done
