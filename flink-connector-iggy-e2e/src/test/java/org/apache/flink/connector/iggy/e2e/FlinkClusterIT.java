/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.flink.connector.iggy.e2e;

import org.apache.flink.connector.iggy.examples.ClusterJob;
import org.apache.flink.connector.iggy.examples.ClusterSqlJob;
import org.apache.flink.connector.iggy.examples.ExactlyOnceClusterJob;
import org.apache.flink.connector.iggy.sink.IggyPartitioner;
import org.apache.flink.connector.iggy.sink.internal.config.WriteAheadPlacement;
import org.apache.flink.connector.iggy.testutils.IggyServerExtension;

import org.apache.iggy.client.blocking.tcp.IggyTcpClient;
import org.apache.iggy.identifier.StreamId;
import org.apache.iggy.identifier.TopicId;
import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.Message;
import org.apache.iggy.message.Partitioning;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job jar on a real, multi-process Flink session cluster (see {@link FlinkCluster}): the
 * JobManager and the TaskManagers are separate JVMs that know nothing of the connector but what the
 * uploaded jar brings, and reach the Iggy server of this JVM (or {@code IGGY_TCP_ADDRESS}) over
 * TCP.
 */
class FlinkClusterIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    private static final String EVENTS = "events";
    private static final String LATEST = "latest";

    /** The consumer name the example's source stores offsets under. */
    private static final String CONSUMER = "keyed-map-example";

    @RegisterExtension static final IggyServerExtension IGGY = new IggyServerExtension();

    private static final Duration SQL_CLIENT_TIMEOUT = Duration.ofSeconds(180);
    private static final Path SQL_SCRIPTS = Path.of("src", "test", "resources", "sql");

    private static FlinkCluster cluster;
    private static String jobJarId;
    private static SqlClient sqlClient;

    @BeforeAll
    static void startCluster() throws Exception {
        Path home = Path.of("target", "flink-cluster-" + System.currentTimeMillis());
        cluster = FlinkCluster.start(home, 2, STARTUP);
        jobJarId = cluster.uploadJar(builtJar("job-jar"));
        sqlClient = new SqlClient(cluster, builtJar("sql-jar"));
    }

    @AfterAll
    static void stopCluster() throws IOException {
        if (cluster != null) {
            cluster.close();
            assertNoThreadOutlivedItsJob(cluster.home());
        }
    }

    /**
     * Flink closes a job's operator coordinators in the background and releases the job's class
     * loader right after; a client's thread still ending then fails to load classes, and the
     * process prints this. Sources close their clients before that (docs/connection.md).
     */
    private static void assertNoThreadOutlivedItsJob(Path home) throws IOException {
        try (Stream<Path> files = Files.list(home)) {
            for (Path out : files.filter(f -> f.toString().endsWith(".out")).toList()) {
                assertThat(Files.readString(out, StandardCharsets.UTF_8))
                        .as("the console output of %s", out.getFileName())
                        .doesNotContain("Trying to access closed classloader");
            }
        }
    }

    @Test
    void boundedKeyedMapJobWritesOneMessagePerChange() throws Exception {
        String stream = createTopics("bounded");
        send(stream, List.of("k1=v1", "k2=v2", "k1=v1", "k1=v1b"));

        String job = cluster.runJar(jobJarId, ClusterJob.class.getName(), jobArgs(stream));
        cluster.awaitJobState(job, "FINISHED", JOB_TIMEOUT);

        assertThat(payloads(IGGY.readAll(stream, LATEST, 0)))
                .containsExactly("k1=v1", "k2=v2", "k1=v1b");
        IGGY.deleteStream(stream);
    }

    /**
     * A job jar (as {@code flink run} submits it) whose password is wrong fails once, under this
     * cluster's restart strategy of 50 attempts, with the connector's message in its failure cause.
     */
    @Test
    void jobJarWithAWrongPasswordFailsOnceWithTheConnectorsMessage() throws Exception {
        String stream = createTopics("wrong-password");
        List<String> args = new ArrayList<>(jobArgs(stream));
        args.set(args.indexOf("--password") + 1, "not-the-password");

        String job = cluster.runJar(jobJarId, ClusterJob.class.getName(), args);
        cluster.awaitJobState(job, "FAILED", JOB_TIMEOUT);

        assertThat(cluster.jobExceptions(job))
                .contains("IggyConfigurationException")
                .contains("Cannot log in to Iggy at " + IGGY.address())
                .doesNotContain("not-the-password");
        assertThat(cluster.recordedFailures(job))
                .as("failures of the job:%n%s", cluster.jobExceptions(job))
                .isEqualTo(1);
        IGGY.deleteStream(stream);
    }

    /**
     * The SQL jar as users deploy it: a plain program jar (no connector inside) run with {@code
     * flink-sql-connector-iggy} on its class path ({@code flink run -C}); the {@code iggy} source
     * reads {@code key=value} lines, the {@code upsert-iggy} sink writes one message per change.
     */
    @Test
    void sqlJobWithTheSqlJarUpsertsOneMessagePerChange() throws Exception {
        Path sqlJar = builtJar("sql-jar");
        String stream = createTopics("sql");
        send(stream, List.of("k1=v1", "k2=v2", "k1=v1", "k1=v1b"));

        String programJar = cluster.uploadJar(builtJar("program-jar"));
        String job =
                cluster.runJar(
                        programJar,
                        ClusterSqlJob.class.getName(),
                        jobArgs(stream),
                        Map.of("pipeline.classpaths", sqlJar.toUri().toString()));
        cluster.awaitJobState(job, "FINISHED", JOB_TIMEOUT);

        List<Message> latest = IGGY.readAll(stream, LATEST, 0);
        assertThat(payloads(latest)).containsExactly("v1", "v2", "v1b");
        assertThat(latest)
                .extracting(
                        m ->
                                new String(
                                        m.userHeaders()
                                                .get(HeaderKey.fromString("flink.key"))
                                                .value(),
                                        StandardCharsets.UTF_8))
                .containsExactly("k1", "k2", "k1");
        IGGY.deleteStream(stream);
    }

    /**
     * The "SQL client quick start" of docs/table-sql.md, exactly as documented (its script is
     * {@code src/test/resources/sql/quickstart.sql}, with the documented address, credentials and
     * stream replaced by the test server's), run by Flink's SQL client with the SQL jar.
     */
    @Test
    void sqlClientRunsTheDocumentedQuickStart() throws Exception {
        String stream = IGGY.uniqueName("quickstart");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "orders", 1);
        IGGY.createTopic(stream, "customers", 1);

        String printed =
                sqlClient.run(
                        SQL_SCRIPTS.resolve("quickstart.sql"),
                        documentedConnection(stream),
                        SQL_CLIENT_TIMEOUT);

        assertThat(SqlClient.resultRows(printed)).isEqualTo(SqlClient.QUICK_START_ROWS);
        // One message per change: the two values of c1, c2's value and c2's deletion.
        assertThat(IGGY.readAll(stream, "customers", 0)).hasSize(4);
        IGGY.deleteStream(stream);
    }

    /**
     * A table over a topic pattern ({@code src/test/resources/sql/topic-pattern.sql}) read by
     * Flink's SQL client with the SQL jar: the rows of every matching topic, each with its topic,
     * and none of the topic that does not match.
     */
    @Test
    void sqlClientReadsATopicPatternTable() throws Exception {
        String stream = IGGY.uniqueName("pattern");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "orders-eu", 1);
        IGGY.createTopic(stream, "orders-us", 2);
        IGGY.createTopic(stream, "audit", 1);
        send(stream, "orders-eu", List.of("eu-1", "eu-2"));
        send(stream, "orders-us", List.of("us-1"));
        send(stream, "audit", List.of("not-read"));

        String printed =
                sqlClient.run(
                        SQL_SCRIPTS.resolve("topic-pattern.sql"),
                        documentedConnection(stream),
                        SQL_CLIENT_TIMEOUT);

        assertThat(SqlClient.queryRows(printed))
                .containsExactlyInAnyOrder(
                        List.of("+I", "orders-eu", "eu-1"),
                        List.of("+I", "orders-eu", "eu-2"),
                        List.of("+I", "orders-us", "us-1"));
        IGGY.deleteStream(stream);
    }

    /**
     * The tables of docs/table-sql.md's "Several topics in one table" ({@code several-topics.sql})
     * as they are there: a list of topics, read to its end, and a topic in every stream matching a
     * pattern, copied by an INSERT that runs on and finds a stream created after it started. Each
     * row says where it came from; the streams and topics they do not name are not read.
     */
    @Test
    void sqlClientReadsTheDocumentedTopicListAndStreamPatternTables() throws Exception {
        String tenants = IGGY.uniqueName("tenants");
        createTenant(tenants + "-tenant-1");
        createTenant(tenants + "-tenant-2");
        String shop = IGGY.uniqueName("shop");
        IGGY.createStream(shop);
        IGGY.createTopic(shop, "seen-events", 1);
        for (String topic : List.of("orders", "payments", "refunds", "audit")) {
            IGGY.createTopic(shop, topic, 1);
            send(shop, topic, List.of(topic.equals("audit") ? "not-read" : topic + "-1"));
        }
        Map<String, String> replacements = new LinkedHashMap<>();
        replacements.put(
                "'address' = '127.0.0.1:8090'",
                "'address' = '"
                        + IGGY.address()
                        + "', 'username' = '"
                        + IGGY.username()
                        + "', 'password' = '"
                        + IGGY.password()
                        + "'");
        replacements.put(
                "'stream-pattern' = 'tenant-.*'",
                "'stream-pattern' = '" + Pattern.quote(tenants) + "-tenant-.*'");
        replacements.put("'stream' = 'shop'", "'stream' = '" + shop + "'");
        Set<String> before = cluster.jobIds();

        String printed =
                sqlClient.run(
                        SQL_SCRIPTS.resolve("several-topics.sql"),
                        replacements,
                        SQL_CLIENT_TIMEOUT);

        assertThat(SqlClient.queryRows(printed))
                .as("the topic list")
                .containsExactlyInAnyOrder(
                        List.of("+I", "orders", "orders-1"),
                        List.of("+I", "payments", "payments-1"),
                        List.of("+I", "refunds", "refunds-1"));
        Set<String> submitted = new TreeSet<>(cluster.jobIds());
        submitted.removeAll(before);
        assertThat(submitted).as("the INSERT's job (the SELECT's ended)").hasSize(2);
        String insert =
                submitted.stream()
                        .filter(job -> cluster.jobState(job).equals("RUNNING"))
                        .findFirst()
                        .orElseThrow();
        try {
            cluster.await(
                    "the events of both tenants in seen-events",
                    JOB_TIMEOUT,
                    () -> IGGY.readAll(shop, "seen-events", 0).size() >= 2);
            createTenant(tenants + "-tenant-3");
            cluster.await(
                    "the events of the tenant created later in seen-events",
                    JOB_TIMEOUT,
                    () -> IGGY.readAll(shop, "seen-events", 0).size() >= 3);
            List<String> seen = payloads(IGGY.readAll(shop, "seen-events", 0));
            assertThat(seen).hasSize(3);
            for (int tenant = 1; tenant <= 3; tenant++) {
                String stream = tenants + "-tenant-" + tenant;
                assertThat(seen)
                        .contains(
                                "{\"source_stream\":\""
                                        + stream
                                        + "\",\"source_topic\":\"events\",\"payload\":\"e-"
                                        + stream
                                        + "\"}");
            }
        } finally {
            cluster.cancel(insert);
        }
        cluster.awaitJobState(insert, "CANCELED", JOB_TIMEOUT);
        for (int tenant = 1; tenant <= 3; tenant++) {
            IGGY.deleteStream(tenants + "-tenant-" + tenant);
        }
        IGGY.deleteStream(shop);
    }

    /** A tenant's stream: its topic {@code events} with one event, another topic not read. */
    private static void createTenant(String stream) {
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "events", 1);
        IGGY.createTopic(stream, "other", 1);
        send(stream, "events", List.of("e-" + stream));
        send(stream, "other", List.of("not-read"));
    }

    /**
     * The complete exactly-once job of docs/table-sql.md ({@code exactly-once.sql}) as it is there,
     * submitted by the SQL client, with the credentials in the session (as the page says they may
     * be) and a local checkpoint directory: the script's own settings take checkpoints into that
     * directory, and each large order appears once in {@code large-orders}.
     */
    @Test
    void sqlClientRunsTheDocumentedExactlyOnceJob(@TempDir Path checkpoints) throws Exception {
        String stream = IGGY.uniqueName("exactly-once-sql");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "orders", 1);
        IGGY.createTopic(stream, "large-orders", 1);
        send(
                stream,
                "orders",
                List.of(
                        "{\"order_id\":\"o1\",\"customer\":\"alice\",\"amount\":150}",
                        "{\"order_id\":\"o2\",\"customer\":\"bob\",\"amount\":20}",
                        "{\"order_id\":\"o3\",\"customer\":\"carol\",\"amount\":100}"));
        Map<String, String> replacements = new LinkedHashMap<>();
        replacements.put(
                "SET 'execution.runtime-mode' = 'streaming';",
                "SET 'iggy.username' = '"
                        + IGGY.username()
                        + "';\nSET 'iggy.password' = '"
                        + IGGY.password()
                        + "';\nSET 'execution.runtime-mode' = 'streaming';");
        replacements.put("'address' = 'iggy:8090'", "'address' = '" + IGGY.address() + "'");
        replacements.put("'stream' = 'shop'", "'stream' = '" + stream + "'");
        replacements.put("s3://my-bucket/flink/checkpoints", checkpoints.toUri().toString());
        Set<String> before = cluster.jobIds();

        sqlClient.run(SQL_SCRIPTS.resolve("exactly-once.sql"), replacements, SQL_CLIENT_TIMEOUT);

        Set<String> submitted = new TreeSet<>(cluster.jobIds());
        submitted.removeAll(before);
        assertThat(submitted).as("the INSERT's job").hasSize(1);
        String job = submitted.iterator().next();
        try {
            cluster.await(
                    "a checkpoint of job " + job + " in the script's directory",
                    JOB_TIMEOUT,
                    () -> hasCheckpoint(checkpoints.resolve(job)));
            cluster.await(
                    "the large orders in large-orders",
                    JOB_TIMEOUT,
                    () -> IGGY.readAll(stream, "large-orders", 0).size() >= 2);
            assertThat(payloads(IGGY.readAll(stream, "large-orders", 0)))
                    .hasSize(2)
                    .anySatisfy(order -> assertThat(order).contains("\"o1\""))
                    .anySatisfy(order -> assertThat(order).contains("\"o3\""));
        } finally {
            cluster.cancel(job);
        }
        cluster.awaitJobState(job, "CANCELED", JOB_TIMEOUT);
        IGGY.deleteStream(stream);
    }

    private static boolean hasCheckpoint(Path jobCheckpoints) {
        if (!Files.isDirectory(jobCheckpoints)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(jobCheckpoints)) {
            return entries.anyMatch(p -> p.getFileName().toString().startsWith("chk-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * docs/catalog.md's "Patterns and topic lists" ({@code catalog-patterns.sql}) as it is there:
     * two topics created through the catalog, read together by one pattern table declared outside
     * it, each row with its topic.
     */
    @Test
    void sqlClientReadsCatalogTopicsThroughAPatternTableOutsideTheCatalog() throws Exception {
        String stream = IGGY.uniqueName("catalog-patterns");
        Map<String, String> replacements = documentedCatalog(stream);
        replacements.put("'stream' = 'shop'", "'stream' = '" + stream + "'");

        String printed =
                sqlClient.run(
                        SQL_SCRIPTS.resolve("catalog-patterns.sql"),
                        replacements,
                        SQL_CLIENT_TIMEOUT);

        assertThat(SqlClient.queryRows(printed))
                .containsExactlyInAnyOrder(
                        List.of("+I", "orders-eu", "eu-1"), List.of("+I", "orders-us", "us-1"));
        IGGY.deleteStream(stream);
    }

    /**
     * An INSERT through Flink's SQL client with the SQL jar that routes each row by its writable
     * {@code topic} metadata column ({@code src/test/resources/sql/topic-routing.sql}): every row
     * lands once in the topic it names, in the partition of its key there, and the same table reads
     * them back with their topics.
     */
    @Test
    void sqlClientInsertRoutesEachRowByItsTopicColumn() throws Exception {
        String stream = IGGY.uniqueName("routing");
        IGGY.createStream(stream);
        Map<String, Integer> partitions = Map.of("orders", 3, "payments", 2, "refunds", 1);
        partitions.forEach((topic, count) -> IGGY.createTopic(stream, topic, count));

        String printed =
                sqlClient.run(
                        SQL_SCRIPTS.resolve("topic-routing.sql"),
                        documentedConnection(stream),
                        SQL_CLIENT_TIMEOUT);

        Map<String, List<String>> stored = new LinkedHashMap<>();
        partitions.forEach(
                (topic, count) -> {
                    for (long p = 0; p < count; p++) {
                        for (Message m : IGGY.readAll(stream, topic, p)) {
                            String key =
                                    new String(
                                            m.userHeaders()
                                                    .get(HeaderKey.fromString("flink.key"))
                                                    .value(),
                                            StandardCharsets.UTF_8);
                            assertThat(p)
                                    .as("partition of %s in %s", key, topic)
                                    .isEqualTo(
                                            IggyPartitioner.partitionForKey(
                                                    key.getBytes(StandardCharsets.UTF_8), count));
                            stored.computeIfAbsent(topic, t -> new ArrayList<>()).add(key);
                        }
                    }
                });
        assertThat(stored.get("orders")).containsExactlyInAnyOrder("o1", "o2", "o1");
        assertThat(stored.get("payments")).containsExactly("p1");
        assertThat(stored.get("refunds")).containsExactly("r1");
        assertThat(SqlClient.queryRows(printed))
                .containsExactlyInAnyOrder(
                        List.of("+I", "orders", "o1", "created"),
                        List.of("+I", "payments", "p1", "captured"),
                        List.of("+I", "orders", "o2", "created"),
                        List.of("+I", "refunds", "r1", "issued"),
                        List.of("+I", "orders", "o1", "shipped"));
        IGGY.deleteStream(stream);
    }

    /**
     * The quick start of docs/catalog.md ({@code src/test/resources/sql/catalog-quickstart.sql})
     * pasted into Flink's interactive SQL client, then another SQL client ({@code
     * catalog-second-session.sql}) that sees the tables the first one created, with the documented
     * connection and stream {@code shop} replaced by the test server's. The stream and its topic
     * {@code raw-topic} exist beforehand, as a tool outside Flink would have created them.
     */
    @Test
    void sqlClientRunsTheCatalogQuickStartAndASecondClientSeesItsTables() throws Exception {
        String stream = IGGY.uniqueName("catalog");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "raw-topic", 1);
        send(stream, "raw-topic", List.of("hello"));
        Map<String, String> replacements = documentedCatalog(stream);
        replacements.put("SHOW TABLES IN shop;", "SHOW TABLES IN `" + stream + "`;");

        String first =
                sqlClient.paste(
                        SQL_SCRIPTS.resolve("catalog-quickstart.sql"),
                        replacements,
                        SQL_CLIENT_TIMEOUT);
        List<List<String>> rows = SqlClient.queryRows(first);
        // SELECT * FROM shop.payments
        assertThat(rows.get(0)).containsExactly("+I", "o1", "9.99");
        // shop.`raw-topic`: the payload as text, partition, offset
        assertThat(rows).hasSize(2);
        assertThat(rows.get(1)).containsExactly("+I", "hello", "0", "0");
        assertThat(IGGY.client().topics().getTopic(StreamId.of(stream), TopicId.of("payments")))
                .hasValueSatisfying(topic -> assertThat(topic.partitionsCount()).isEqualTo(3L));

        replacements.remove("IF NOT EXISTS shop;");
        String second =
                sqlClient.run(
                        SQL_SCRIPTS.resolve("catalog-second-session.sql"),
                        replacements,
                        SQL_CLIENT_TIMEOUT);
        assertThat(second).contains("raw-topic");
        // SHOW CREATE TABLE: the stored definition and the topic's options, never the connection.
        int ddl = second.indexOf("CREATE TABLE `iggy`");
        assertThat(second.substring(ddl, second.indexOf("row in set", ddl)))
                .contains("`amount` DECIMAL(10, 2)", "'format' = 'json'", "'partitions' = '3'")
                .doesNotContain("password", "address");
        assertThat(SqlClient.queryRows(second))
                .containsExactly(List.of("+I", "o1", "9.99"), List.of("+I", "o2", "1.50"));
        IGGY.deleteStream(stream);
    }

    /**
     * docs/catalog.md's {@code CREATE CATALOG} with a wrong password, typed into Flink's
     * interactive SQL client with {@code SHOW CATALOGS;} and {@code QUIT;} right after it: the
     * connector's login error, its class named once, and nothing more of it. Quitting closes the
     * session and its class loader (the SQL jar's) at once, and the JVM exits only once its last
     * non-daemon thread ended: an SDK event loop still shutting down then dies of {@code
     * NoClassDefFoundError} and prints {@code Exception in thread
     * "multiThreadIoEventLoopGroup-..."} before the exit, and one never shut down keeps the client
     * from exiting.
     */
    @Test
    void sqlClientCreateCatalogWithAWrongPasswordFailsCleanlyAndLeavesNoThread() throws Exception {
        Matcher documented =
                Pattern.compile(
                                "^CREATE CATALOG iggy WITH \\(.*?^\\);$",
                                Pattern.DOTALL | Pattern.MULTILINE)
                        .matcher(Files.readString(SQL_SCRIPTS.resolve("catalog-quickstart.sql")));
        assertThat(documented.find()).as("CREATE CATALOG in catalog-quickstart.sql").isTrue();
        Map<String, String> replacements = documentedCredentials();
        replacements.put("'password' = 'iggy'", "'password' = 'wrong'");
        String createCatalog =
                SqlClient.replaced(documented.group(), "CREATE CATALOG", replacements);

        String printed;
        try (SqlClient.Interactive client = sqlClient.startInteractive()) {
            client.type(createCatalog + "\nSHOW CATALOGS;\n");
            printed = client.quit(SQL_CLIENT_TIMEOUT);
        }

        String error = printed.substring(printed.indexOf(SqlClient.STATEMENT_FAILED));
        // The client prints the root cause only: the connector's message, its class named once.
        assertThat(error)
                .contains(
                        "IggyConfigurationException: Cannot log in to Iggy at "
                                + IGGY.address()
                                + " as user '"
                                + IGGY.username()
                                + "'")
                .doesNotContain("wrong");
        assertThat(error.split("IggyConfigurationException", -1))
                .as("the exception's class named once in:%n%s", error)
                .hasSize(2);
        assertThat(printed).doesNotContain("Exception in thread", "NoClassDefFoundError");
        assertThat(SqlClient.resultRows(printed))
                .contains(List.of("default_catalog"))
                .doesNotContain(List.of("iggy"));
    }

    /**
     * A SQL-client query of a table whose address has no server fails with the connector's message,
     * the TaskManager survives (FLINK-39330 kills it when a task fails while still starting), and
     * the next query runs.
     */
    @Test
    void sqlClientQueryOfAnUnreachableServerFailsAndTheNextQueryRuns() throws Exception {
        String printed;
        boolean taskManagerDied;
        try {
            printed =
                    sqlClient.runFailing(
                            SQL_SCRIPTS.resolve("unreachable-server.sql"),
                            Map.of(),
                            SQL_CLIENT_TIMEOUT);
            taskManagerDied = cluster.taskManagerExitsWithin(Duration.ofSeconds(10));
        } finally {
            // Whatever this test finds, the other tests of the class get a working cluster.
            cluster.replaceDeadTaskManagers(STARTUP);
        }
        assertThat(taskManagerDied)
                .as("a TaskManager died of the failed query (FLINK-39330)")
                .isFalse();
        // The SQL client prints only the root cause: it must be the connector's message.
        assertThat(printed.substring(printed.lastIndexOf(SqlClient.STATEMENT_FAILED)))
                .contains("Cannot connect to Iggy at 127.0.0.1:1");

        String stream = IGGY.uniqueName("after-failure");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "orders", 1);
        send(stream, "orders", List.of("first", "second"));
        Path script = cluster.home().resolve("after-failure.sql");
        Files.writeString(
                script,
                String.join(
                        "\n",
                        "SET 'sql-client.execution.result-mode' = 'tableau';",
                        "CREATE TABLE orders (line STRING) WITH ('connector' = 'iggy',",
                        "  'address' = 'localhost:8090', 'username' = 'iggy', 'password' = 'iggy',",
                        "  'stream' = 'shop', 'topic' = 'orders', 'format' = 'raw',",
                        "  'scan.startup.mode' = 'earliest-offset',",
                        "  'scan.bounded.mode' = 'latest-offset');",
                        "SELECT * FROM orders;",
                        ""));
        String next = sqlClient.run(script, documentedConnection(stream), SQL_CLIENT_TIMEOUT);
        assertThat(SqlClient.resultRows(next))
                .containsExactly(List.of("+I", "first"), List.of("+I", "second"));
        IGGY.deleteStream(stream);
    }

    /**
     * Configuration errors typed into the SQL client ({@code configuration-errors.sql}: a SELECT
     * and an INSERT of a misspelt topic and of a wrong password) under the playground's restart
     * strategy, which this cluster has (50 attempts, half a second apart): each statement prints
     * the connector's message, and its job failed once, without a restart.
     */
    @Test
    void sqlClientConfigurationErrorsFailAtOnceUnderThePlaygroundsRestartStrategy()
            throws Exception {
        assertConfigurationErrorsFailAtOnce("");
    }

    /**
     * As {@link #sqlClientConfigurationErrorsFailAtOnceUnderThePlaygroundsRestartStrategy}, under
     * the restart strategy Flink uses when none is configured and checkpoints are on: exponential
     * delay, without a limit of attempts.
     */
    @Test
    void sqlClientConfigurationErrorsFailAtOnceUnderFlinksDefaultRestartStrategy()
            throws Exception {
        assertConfigurationErrorsFailAtOnce(
                "SET 'execution.checkpointing.interval' = '1 s';\n"
                        + "SET 'restart-strategy.type' = 'exponential-delay';\n");
    }

    private void assertConfigurationErrorsFailAtOnce(String restartStrategy) throws Exception {
        String stream = IGGY.uniqueName("config-errors");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, "orders", 1);
        Set<String> jobsBefore = cluster.jobIds();
        Path script = SQL_SCRIPTS.resolve("configuration-errors.sql");
        String sql =
                SqlClient.replaced(
                        Files.readString(script, StandardCharsets.UTF_8),
                        script,
                        documentedConnection(stream));
        String printed;
        boolean taskManagerDied;
        try (SqlClient.Interactive client = sqlClient.startInteractive()) {
            client.type(restartStrategy + sql.substring(sql.indexOf("\n\n") + 2));
            printed = client.quit(SQL_CLIENT_TIMEOUT);
            taskManagerDied = cluster.taskManagerExitsWithin(Duration.ofSeconds(10));
        } finally {
            cluster.replaceDeadTaskManagers(STARTUP);
        }
        assertThat(taskManagerDied)
                .as("a TaskManager died of a failed query (FLINK-39330)")
                .isFalse();

        String[] errors = printed.split(Pattern.quote(SqlClient.STATEMENT_FAILED), -1);
        assertThat(errors).as("four failed statements in:%n%s", printed).hasSize(5);
        String missingTopic = "Iggy topic 'ordres' does not exist in stream '" + stream + "'";
        String wrongPassword =
                "Cannot log in to Iggy at " + IGGY.address() + " as user '" + IGGY.username() + "'";
        assertThat(errors[1])
                .as("SELECT of a misspelt topic")
                .contains(missingTopic, "(did you mean 'orders'?)");
        assertThat(errors[2]).as("SELECT with a wrong password").contains(wrongPassword);
        assertThat(errors[3]).as("INSERT into a misspelt topic").contains(missingTopic);
        assertThat(errors[4]).as("INSERT with a wrong password").contains(wrongPassword);
        assertThat(printed).doesNotContain("Job restarted");

        Set<String> jobs = new TreeSet<>(cluster.jobIds());
        jobs.removeAll(jobsBefore);
        assertThat(jobs).as("the jobs of the four statements").hasSize(4);
        for (String job : jobs) {
            assertThat(cluster.jobState(job)).isEqualTo("FAILED");
            assertThat(cluster.recordedFailures(job))
                    .as(
                            "failures of job %s (each one but the last restarted it):%n%s",
                            job, cluster.jobExceptions(job))
                    .isEqualTo(1);
        }
        IGGY.deleteStream(stream);
    }

    /**
     * A live job loses its only TaskManager to SIGKILL while input flows, and recovers on a new
     * one.
     *
     * <p>Input, in order: keys k0..k49 with value {@code a}; then, from before the kill until the
     * new TaskManager is up, a steady flow of keys s0, s1, ... with value {@code x} (each once);
     * then every k key again, the even ones unchanged ({@code a}) and the odd ones changed to
     * {@code b}. The job restores the source offsets and the sink's per-key fingerprints of the
     * last completed checkpoint and replays what followed it, so a change written between that
     * checkpoint and the kill is written again (at-least-once: Iggy has no transactions). Asserted,
     * per key, on the output topic:
     *
     * <ul>
     *   <li>its last value is the key's final input value: nothing is lost;
     *   <li>with repeats of the same value collapsed, it is exactly the key's sequence of changes
     *       ({@code a} for even k keys, whose repeat is never written; {@code a, b} for odd ones;
     *       {@code x} for s keys): a value is never invented, reordered or re-sent after a newer
     *       one, and the only duplicates are replays right after the original.
     * </ul>
     *
     * <p>And the offset the source stores in Iggy on checkpoints never runs ahead of the output:
     * read right after the kill, every input up to it is already in the output topic; at the end it
     * is the last input offset (the recovered job stores offsets too).
     */
    @Test
    void liveJobSurvivesTaskManagerKillWithoutLosingAChange() throws Exception {
        String stream = createTopics("failover");
        int keys = 50;
        List<String> first = IntStream.range(0, keys).mapToObj(k -> "k" + k + "=a").toList();
        List<String> second =
                IntStream.range(0, keys)
                        .mapToObj(k -> "k" + k + "=" + (k % 2 == 0 ? "a" : "b"))
                        .toList();
        send(stream, first);

        List<String> args = new ArrayList<>(jobArgs(stream));
        args.addAll(List.of("--live", "--checkpoint-interval", "500"));
        String job = cluster.runJar(jobJarId, ClusterJob.class.getName(), args);
        SteadyProducer producer = new SteadyProducer(stream);
        try {
            cluster.awaitJobState(job, "RUNNING", JOB_TIMEOUT);
            cluster.await(
                    "there is output, a completed checkpoint and a stored offset",
                    JOB_TIMEOUT,
                    () ->
                            IGGY.messagesCount(stream, LATEST, 0) > 0
                                    && cluster.completedCheckpoints(job) > 0
                                    && storedOffset(stream).isPresent());
            producer.start();
            cluster.await(
                    "the steady input reaches the output",
                    JOB_TIMEOUT,
                    () -> valuesByKey(payloads(IGGY.readAll(stream, LATEST, 0))).containsKey("s0"));

            cluster.killTaskManagerOf(job, JOB_TIMEOUT);
            long storedAtKill = storedOffset(stream).orElseThrow();
            List<String> outputAtKill = payloads(IGGY.readAll(stream, LATEST, 0));

            cluster.startTaskManager(STARTUP);
            List<String> streamed = producer.stop();
            send(stream, second);

            List<String> input = new ArrayList<>(first);
            input.addAll(streamed);
            input.addAll(second);
            assertThat(outputAtKill)
                    .as(
                            "every input up to the offset stored at the kill (%d) is in the output",
                            storedAtKill)
                    .containsAll(input.subList(0, (int) storedAtKill + 1));
            long lastOffset = input.size() - 1;
            cluster.await(
                    "every key's final value is in the output and offset " + lastOffset + " stored",
                    JOB_TIMEOUT,
                    () ->
                            lastValues(payloads(IGGY.readAll(stream, LATEST, 0)))
                                            .equals(lastValues(input))
                                    && storedOffset(stream).orElse(-1L) == lastOffset);

            Map<String, List<String>> expectedChanges = new LinkedHashMap<>();
            valuesByKey(input)
                    .forEach((key, values) -> expectedChanges.put(key, collapseRepeats(values)));
            Map<String, List<String>> outputChanges = new LinkedHashMap<>();
            valuesByKey(payloads(IGGY.readAll(stream, LATEST, 0)))
                    .forEach((key, values) -> outputChanges.put(key, collapseRepeats(values)));
            assertThat(outputChanges).isEqualTo(expectedChanges);
            assertThat(cluster.restoredCheckpoint(job))
                    .as("the job recovered from a completed checkpoint")
                    .isPresent();
            assertThat(streamed).isNotEmpty();
            assertThat(cluster.jobState(job)).isEqualTo("RUNNING");
        } finally {
            producer.stop();
            cluster.cancel(job);
        }
        IGGY.deleteStream(stream);
    }

    /**
     * An exactly-once job loses the host of its TaskManager ten times while input flows (SIGKILL,
     * and the TaskManager's local and temporary directories deleted), once while a commit is
     * between two sends of a committable, so after its checkpoint and before its commit ended; the
     * server's deduplication is off. The write-ahead files are in the cluster's checkpoint
     * directory, which every TaskManager reaches and no lost host takes along. Both outputs then
     * hold each input exactly once: every line once, in order per partition, and per key every
     * change once in order (none lost as unchanged, none repeated).
     *
     * <p>Before each kill a spare TaskManager (a new host, with directories of its own) is started
     * and registered, so the job restarts at once on it and the next kill follows a checkpoint of
     * the restarted job by a random delay.
     */
    @Test
    void exactlyOnceJobSurvivesTenLostHostsWithEachInputOnceInOrder(@TempDir Path pauses)
            throws Exception {
        String stream = IGGY.uniqueName("exactly-once");
        IGGY.createStream(stream);
        IGGY.createTopic(stream, EVENTS, 1);
        IGGY.createTopic(stream, ExactlyOnceClusterJob.RECORDS, 2);
        IGGY.createTopic(stream, ExactlyOnceClusterJob.MAP, 1);
        List<String> args = new ArrayList<>(jobArgs(stream));
        args.addAll(List.of("--pause-dir", pauses.toAbsolutePath().toString()));
        String job = cluster.runJar(jobJarId, ExactlyOnceClusterJob.class.getName(), args);
        SteadyProducer producer = new SteadyProducer(stream);
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path pauseRequest = pauses.resolve(ExactlyOnceClusterJob.PAUSE_REQUEST);
        Path paused = pauses.resolve(ExactlyOnceClusterJob.PAUSED);
        try {
            cluster.awaitJobState(job, "RUNNING", JOB_TIMEOUT);
            producer.start();
            for (int kill = 1; kill <= 10; kill++) {
                long sinceLastKill = System.currentTimeMillis();
                cluster.startTaskManager(STARTUP);
                cluster.awaitJob(
                        job,
                        "a checkpoint triggered after "
                                + (kill == 1 ? "the start" : "kill " + (kill - 1))
                                + " completed",
                        JOB_TIMEOUT,
                        () -> cluster.latestCheckpointTriggeredAt(job) > sinceLastKill);
                if (kill == 5) {
                    Files.createFile(pauseRequest);
                    cluster.awaitJob(
                            job,
                            "a commit paused between two sends",
                            JOB_TIMEOUT,
                            () -> Files.exists(paused));
                    // where the commit paused: a failover may have moved the job since
                    cluster.loseHostOfProcess(
                            Long.parseLong(Files.readString(paused).split(" ", 2)[0]));
                    Files.delete(pauseRequest);
                } else {
                    // a random moment (seed in the failure message), not synchronisation
                    LockSupport.parkNanos(Duration.ofMillis(random.nextInt(600)).toNanos());
                    cluster.loseHostOf(job, JOB_TIMEOUT);
                }
            }
            List<String> input = producer.stop();
            List<List<String>> expectedRecords = List.of(new ArrayList<>(), new ArrayList<>());
            Map<String, List<String>> expectedChanges = new LinkedHashMap<>();
            for (String line : input) {
                long i = Long.parseLong(line.substring(1, line.indexOf('=')));
                expectedRecords.get((int) (i % 2)).add(line);
                List<String> values =
                        expectedChanges.computeIfAbsent("k" + (i % 20), k -> new ArrayList<>());
                String value = "v" + (i / 40);
                if (values.isEmpty() || !values.get(values.size() - 1).equals(value)) {
                    values.add(value);
                }
            }
            long changes = expectedChanges.values().stream().mapToLong(List::size).sum();
            String context = "seed " + seed + ", paused commit: " + Files.readString(paused);
            cluster.await(
                    "every input in both outputs (" + context + ")",
                    JOB_TIMEOUT,
                    () ->
                            IGGY.messagesCount(stream, ExactlyOnceClusterJob.RECORDS, 0)
                                                    + IGGY.messagesCount(
                                                            stream,
                                                            ExactlyOnceClusterJob.RECORDS,
                                                            1)
                                            >= input.size()
                                    && IGGY.messagesCount(stream, ExactlyOnceClusterJob.MAP, 0)
                                            >= changes);
            for (int p = 0; p < 2; p++) {
                assertThat(payloads(IGGY.readAll(stream, ExactlyOnceClusterJob.RECORDS, p)))
                        .as("partition %d (%s)", p, context)
                        .containsExactlyElementsOf(expectedRecords.get(p));
            }
            Map<String, List<String>> outputChanges = new LinkedHashMap<>();
            for (Message m : IGGY.readAll(stream, ExactlyOnceClusterJob.MAP, 0)) {
                outputChanges
                        .computeIfAbsent(
                                new String(
                                        m.userHeaders().get(HeaderKey.fromString("key")).value(),
                                        StandardCharsets.UTF_8),
                                k -> new ArrayList<>())
                        .add(new String(m.payload(), StandardCharsets.UTF_8));
            }
            assertThat(outputChanges).as(context).isEqualTo(expectedChanges);
            assertThat(cluster.jobState(job)).isEqualTo("RUNNING");
            assertThat(
                            cluster.home()
                                    .resolve("checkpoints")
                                    .resolve(WriteAheadPlacement.SUBDIRECTORY)
                                    .resolve(job))
                    .as("the job's write-ahead files, in the checkpoint directory")
                    .isDirectory();
        } finally {
            producer.stop();
            cluster.cancel(job);
        }
        IGGY.deleteStream(stream);
    }

    /**
     * The exactly-once job on a cluster whose configuration names no checkpoint directory, with no
     * write-ahead directory of its own: the cluster refuses it when its program builds it, naming
     * both settings, and runs nothing. Its write-ahead files would otherwise have only a
     * TaskManager's own disk, which a lost host takes along.
     */
    @Test
    void exactlyOnceJobWithoutADurableDirectoryIsRefused(@TempDir Path pauses) throws Exception {
        Path home = Path.of("target", "flink-cluster-without-checkpoints-" + System.nanoTime());
        try (FlinkCluster bare = FlinkCluster.startWithoutCheckpointDirectory(home, STARTUP)) {
            String jar = bare.uploadJar(builtJar("job-jar"));
            List<String> args = new ArrayList<>(jobArgs(IGGY.uniqueName("refused")));
            args.addAll(List.of("--pause-dir", pauses.toAbsolutePath().toString()));

            String refusal = bare.runJarRefused(jar, ExactlyOnceClusterJob.class.getName(), args);

            assertThat(refusal)
                    .contains("no durable place for its write-ahead files")
                    .contains("setExactlyOnceWriteAheadDir")
                    .contains("'sink.exactly-once.write-ahead-dir'")
                    .contains("'execution.checkpointing.dir'");
            assertThat(bare.jobIds()).as("jobs of the refused program").isEmpty();
        }
    }

    /** Sends {@code s<i>=x}, a few lines at a time, on its own thread and connection. */
    private static final class SteadyProducer {
        private static final int BATCH = 5;
        private static final Duration PAUSE = Duration.ofMillis(50);

        private final String stream;
        private final List<String> sent = new CopyOnWriteArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private Thread thread;

        SteadyProducer(String stream) {
            this.stream = stream;
        }

        void start() {
            running.set(true);
            thread = new Thread(this::run, "steady-producer");
            thread.start();
        }

        private void run() {
            try (IggyTcpClient client = IGGY.newClient()) {
                while (running.get()) {
                    List<String> lines = new ArrayList<>();
                    for (int i = 0; i < BATCH; i++) {
                        lines.add("s" + (sent.size() + i) + "=x");
                    }
                    client.messages()
                            .sendMessages(
                                    StreamId.of(stream),
                                    TopicId.of(EVENTS),
                                    Partitioning.partitionId(0L),
                                    lines.stream().map(Message::of).toList());
                    sent.addAll(lines);
                    // Pacing, not synchronisation: a steady trickle rather than one burst.
                    LockSupport.parkNanos(PAUSE.toNanos());
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }

        /** Stops and returns every line sent, in offset order. */
        List<String> stop() throws InterruptedException {
            running.set(false);
            if (thread != null) {
                thread.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("The steady producer failed", failure.get());
            }
            return List.copyOf(sent);
        }
    }

    // ---------------------------------------------------------------------------------- helpers

    /** A jar the build made before the tests, named by a system property set in the pom. */
    private static Path builtJar(String name) {
        String path = System.getProperty("flink-cluster-it." + name);
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException(
                    "The "
                            + name
                            + " ("
                            + path
                            + ") is missing: run the tests through Maven with -am, which builds it");
        }
        return Path.of(path);
    }

    /**
     * The documented scripts' connection and stream ({@code 'address' = 'localhost:8090'}, {@code
     * iggy}/{@code iggy}, stream {@code shop}), replaced by the test server's and {@code stream}.
     */
    private static Map<String, String> documentedConnection(String stream) {
        Map<String, String> replacements = documentedCredentials();
        replacements.put("'stream' = 'shop'", "'stream' = '" + stream + "'");
        return replacements;
    }

    /**
     * The documented catalog scripts' connection, and their database {@code shop}, replaced by the
     * test server's and {@code stream}.
     */
    private static Map<String, String> documentedCatalog(String stream) {
        Map<String, String> replacements = documentedCredentials();
        replacements.put("IF NOT EXISTS shop;", "IF NOT EXISTS `" + stream + "`;");
        replacements.put("shop.", "`" + stream + "`.");
        return replacements;
    }

    /** The documented scripts' address and credentials, replaced by the test server's. */
    private static Map<String, String> documentedCredentials() {
        Map<String, String> replacements = new LinkedHashMap<>();
        replacements.put("'address' = 'localhost:8090'", "'address' = '" + IGGY.address() + "'");
        replacements.put("'username' = 'iggy'", "'username' = '" + IGGY.username() + "'");
        replacements.put("'password' = 'iggy'", "'password' = '" + IGGY.password() + "'");
        return replacements;
    }

    private static List<String> jobArgs(String stream) {
        return List.of(
                "--address", IGGY.address(),
                "--username", IGGY.username(),
                "--password", IGGY.password(),
                "--stream", stream);
    }

    private static String createTopics(String prefix) {
        String stream = IGGY.uniqueName(prefix);
        IGGY.createStream(stream);
        IGGY.createTopic(stream, EVENTS, 1);
        IGGY.createTopic(stream, LATEST, 1);
        return stream;
    }

    private static void send(String stream, List<String> lines) {
        send(stream, EVENTS, lines);
    }

    private static void send(String stream, String topic, List<String> lines) {
        IGGY.send(
                stream,
                topic,
                0,
                lines.stream().map(line -> line.getBytes(StandardCharsets.UTF_8)).toList());
    }

    private static Optional<Long> storedOffset(String stream) {
        return IGGY.storedOffset(stream, EVENTS, 0, CONSUMER);
    }

    private static List<String> payloads(List<Message> messages) {
        return messages.stream().map(m -> new String(m.payload(), StandardCharsets.UTF_8)).toList();
    }

    private static Map<String, String> lastValues(List<String> lines) {
        Map<String, String> last = new LinkedHashMap<>();
        valuesByKey(lines).forEach((key, values) -> last.put(key, values.get(values.size() - 1)));
        return last;
    }

    /** {@code k=v} lines grouped by key, each key's values in order. */
    private static Map<String, List<String>> valuesByKey(List<String> lines) {
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        for (String line : lines) {
            int eq = line.indexOf('=');
            byKey.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>())
                    .add(line.substring(eq + 1));
        }
        return byKey;
    }

    private static List<String> collapseRepeats(List<String> values) {
        List<String> collapsed = new ArrayList<>();
        for (String value : values) {
            if (collapsed.isEmpty() || !collapsed.get(collapsed.size() - 1).equals(value)) {
                collapsed.add(value);
            }
        }
        return collapsed;
    }
}
