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

# The playground: an in-JVM Iggy server with stream shop and its topics events, latest, orders,
# customers, raw-topic and output (127.0.0.1:8090, user iggy, password iggy), a Flink JobManager
# (web UI on http://localhost:8081) and a TaskManager, and Flink's SQL client with the SQL jar.
#
#   ./playground.sh start [SQL client options]   build if needed, start everything (or Flink next to
#                                                the server that stop kept), open the SQL client
#   ./playground.sh sql [SQL client options]     open the SQL client again (e.g. -f script.sql)
#   ./playground.sh flink run|list|cancel ...    Flink's command-line client (e.g. run -d job.jar)
#   ./playground.sh send STREAM/TOPIC MESSAGE... send messages (one per line of stdin without MESSAGE)
#   ./playground.sh poll STREAM/TOPIC [--offset N] [--partition N] [--count N]
#   ./playground.sh topic create STREAM/TOPIC [PARTITIONS]   create a topic (and its stream)
#   ./playground.sh taskmanager kill             kill the last started TaskManager (SIGKILL)
#   ./playground.sh taskmanager start            start one more TaskManager
#   ./playground.sh stop                         stop Flink; the Iggy server keeps running with its data
#   ./playground.sh stop --all                   stop everything the playground started
#
# Environment: FLINK_VERSION (e.g. 1.20.3) the Flink release to run, built for it at start when
# the last build was for another (default: the last build's, or 2.2.0 with nothing built);
# IGGY_PORT (8090) and FLINK_REST_PORT (8081) choose the ports; PLAYGROUND_HOME (.playground in
# the repository) holds the configuration, the logs and the process ids; PLAYGROUND_BUILD=always
# rebuilds before start. Needs Java 17 and Maven.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HOME_DIR="${PLAYGROUND_HOME:-$ROOT/.playground}"
IGGY_PORT="${IGGY_PORT:-8090}"
export IGGY_PORT FLINK_REST_PORT="${FLINK_REST_PORT:-8081}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

E2E="$ROOT/flink-connector-iggy-e2e/target"
# The newest of each jar: their names carry the version, which names the Flink line
# (flink-sql-connector-iggy-0.1.0-2.2-SNAPSHOT.jar), and a build without clean leaves older ones.
IGGY_JAR="$(ls -t "$ROOT"/flink-connector-iggy-test-utils/target/flink-connector-iggy-test-utils-*.jar 2>/dev/null | grep -v -e '-sources' -e '-tests' -e '-javadoc' | head -n 1 || true)"
SQL_JAR="$(ls -t "$ROOT"/flink-sql-connector-iggy/target/flink-sql-connector-iggy-*.jar 2>/dev/null | grep -v -e '-sources' -e '-tests' -e '-javadoc' -e 'original-' | head -n 1 || true)"
E2E_JAR="$(ls -t "$E2E"/flink-connector-iggy-e2e-*.jar 2>/dev/null | grep -v -e '-job.jar' -e '-sources' -e '-tests' -e '-javadoc' | head -n 1 || true)"

built() {
  [[ -n "$IGGY_JAR" && -n "$SQL_JAR" && -n "$E2E_JAR" && -f "$E2E/flink-cluster.classpath" \
     && -f "$E2E/sql-client.classpath" && -d "$ROOT/flink-connector-iggy-test-utils/target/lib" ]]
}

# The Flink version the build in target/ is for (the cluster's flink-runtime), or nothing.
built_version() {
  [[ -f "$E2E/flink-cluster.classpath" ]] || return 0
  tr ':' '\n' <"$E2E/flink-cluster.classpath" \
    | sed -n 's#.*/flink-runtime-\([0-9][^/]*\)\.jar$#\1#p' | head -n 1
}

build() {
  local version=()
  [[ -n "${FLINK_VERSION:-}" ]] && version=("-Dflink.version=$FLINK_VERSION")
  echo "Building the connector, the SQL jar and the in-JVM Iggy server for Flink ${FLINK_VERSION:-2.2.0 (the default)} (the first build downloads dependencies)..."
  # clean: the classes of another Flink line's shim folders must not stay behind.
  (cd "$ROOT" && mvn -B -q -DskipTests "${version[@]}" -pl flink-connector-iggy-e2e -am clean package)
  exec "$0" "$@"
}

playground() {
  "$JAVA" -cp "$E2E_JAR:$(cat "$E2E/flink-cluster.classpath")" \
    -Dplayground.home="$HOME_DIR" \
    -Dplayground.iggy-jar="$IGGY_JAR" \
    -Dplayground.sql-jar="$SQL_JAR" \
    -Dplayground.cluster-classpath="$E2E/flink-cluster.classpath" \
    -Dplayground.client-classpath="$E2E/sql-client.classpath" \
    org.apache.flink.connector.iggy.playground.Playground "$@"
}

command="${1:-}"
[[ $# -gt 0 ]] && shift
case "$command" in
  start)
    if [[ "${PLAYGROUND_BUILD:-}" == always ]]; then
      export PLAYGROUND_BUILD=
      build start "$@"
    fi
    built || build start "$@"
    if [[ -n "${FLINK_VERSION:-}" && "$(built_version)" != "$FLINK_VERSION" ]]; then
      [[ "${PLAYGROUND_BUILT_FOR:-}" != "$FLINK_VERSION" ]] \
        || { echo "The build is for Flink $(built_version), not FLINK_VERSION=$FLINK_VERSION" >&2; exit 1; }
      export PLAYGROUND_BUILT_FOR="$FLINK_VERSION"
      build start "$@"
    fi
    echo "Flink $(built_version)"
    # Its own process group: Ctrl-C in the SQL client must not reach the server and the cluster.
    ( set -m; playground start & wait $! )
    playground sql "$@"
    ;;
  sql|stop|flink|taskmanager)
    built || { echo "Nothing is built yet: run ./playground.sh start" >&2; exit 1; }
    playground "$command" "$@"
    ;;
  send|poll|topic)
    built || { echo "Nothing is built yet: run ./playground.sh start" >&2; exit 1; }
    # The server's jar has no SLF4J binding (it must not impose one on class paths it is on):
    # SLF4J's three lines saying so are left out of what the command prints on stderr.
    { "$JAVA" -jar "$IGGY_JAR" "$command" "$@" --address "127.0.0.1:$IGGY_PORT" 2>&1 1>&3 \
        | { grep -v '^SLF4J:' >&2 || true; }; } 3>&1
    ;;
  *)
    sed -n '18,38p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
