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
package org.apache.flink.connector.iggy.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Where the CPU of a stretch of time went, by thread group: the source's fetcher and task threads,
 * the sink's sending threads and its exactly-once committer's task, the SDK's event loops (every
 * client in the JVM), request time-outs, the in-JVM server, the plain SDK loop's threads, the rest
 * of the Java threads (MiniCluster), and the JVM's own threads: JIT compilers and garbage
 * collectors apart. Samples every thread's CPU time fifty times a second, so that threads which end
 * before the stretch does (a finished job's) still count, up to their last sample.
 *
 * <p>The JVM's own threads are invisible to {@link ThreadMXBean}; on Linux their CPU time comes
 * from {@code /proc/self/task}, by thread name. Elsewhere they count as {@link #JVM}.
 */
final class ThreadCpu {

    static final String FETCHER = "fetcher";
    static final String TASK = "task";
    static final String SENDER = "sink sender";
    static final String COMMITTER = "committer";
    static final String SDK = "SDK event loops";
    static final String TIMEOUTS = "request timeouts";
    static final String SERVER = "in-JVM server";
    static final String LOOP = "SDK loop threads";
    static final String REST = "rest";
    static final String JIT = "JIT compilers";
    static final String GC = "GC threads";
    static final String JVM = "JVM (other)";
    static final String IDLE = "idle";

    /** Not CPU: the wall time of garbage collection pauses, for telling GC from JIT. */
    static final String GC_PAUSES = "(of which GC pauses, wall)";

    /** The sampler's own thread, left out of every figure. */
    private static final String SAMPLER = "thread-cpu-sampler";

    /** Prefix of the plain SDK loop's thread names. */
    static final String LOOP_THREAD_PREFIX = "sdk-loop-";

    private static final String[] GROUPS = {
        FETCHER, TASK, SENDER, COMMITTER, SDK, TIMEOUTS, SERVER, LOOP, REST
    };
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final long SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<Long, String> groupById = new HashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean stopped;

    /** Every thread's CPU time at one moment. */
    private static final class Sample {
        final long nanos = System.nanoTime();
        final long processCpuNanos = processCpuNanos();
        final long gcMillis =
                ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .mapToLong(GarbageCollectorMXBean::getCollectionTime)
                        .sum();
        final Map<Long, Long> cpuNanosById = new HashMap<>();
        final Map<String, Long> nativeCpuNanosByTid = NativeThreads.cpuNanosByTid();
    }

    private ThreadCpu() {
        sample();
        sampler = new Thread(this::sampleUntilStopped, SAMPLER);
        sampler.setDaemon(true);
        sampler.start();
    }

    /** The CPU time the whole process has used so far. */
    static long processCpuNanos() {
        return PROCESS.getProcessCpuTime();
    }

    /** Starts sampling: threads alive now count from now, threads born later from their start. */
    static ThreadCpu start() {
        return new ThreadCpu();
    }

    private void sampleUntilStopped() {
        while (!stopped) {
            LockSupport.parkNanos(SAMPLE_NANOS);
            sample();
        }
    }

    private synchronized void sample() {
        Sample sample = new Sample();
        for (long id : THREADS.getAllThreadIds()) {
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu < 0) {
                continue; // ended meanwhile
            }
            if (!groupById.containsKey(id)) {
                ThreadInfo info = THREADS.getThreadInfo(id);
                if (info == null) {
                    continue;
                }
                groupById.put(id, groupOf(info.getThreadName()));
            }
            sample.cpuNanosById.put(id, cpu);
        }
        samples.add(sample);
    }

    /** Stops sampling; the CPU of the whole stretch, as {@link #between}. */
    synchronized Map<String, Long> stop() {
        stopped = true;
        sample();
        return between(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * Per group, the CPU used in nanoseconds between the first sample at or after {@code fromNanos}
     * and the last at or before {@code toNanos} (a {@link System#nanoTime()} each), or over all
     * samples when fewer than two fall in between. Two more entries: the process's CPU that no Java
     * thread accounts for ({@link #JVM}: garbage collection, JIT compilers, and the last moments of
     * threads that ended between samples), and the CPU time the machine's cores had but the process
     * left unused ({@link #IDLE}).
     */
    synchronized Map<String, Long> between(long fromNanos, long toNanos) {
        int first = 0;
        while (first < samples.size() && samples.get(first).nanos < fromNanos) {
            first++;
        }
        int last = samples.size() - 1;
        while (last >= 0 && samples.get(last).nanos > toNanos) {
            last--;
        }
        if (last - first < 1) {
            first = 0;
            last = samples.size() - 1;
        }
        Sample start = samples.get(first);
        Sample end = samples.get(last);
        List<Sample> stretch = samples.subList(first, last + 1);
        Map<String, Long> used = new LinkedHashMap<>();
        for (String group : GROUPS) {
            used.put(group, 0L);
        }
        addByGroup(stretch, sample -> sample.cpuNanosById, groupById::get, used);
        // The sampler's own CPU (reading every thread's, some of it from /proc, 50 times a second)
        // is the measurement's, not the measured work's: neither a group's nor the process's.
        Long samplerCpu = used.remove(SAMPLER);
        long processCpu =
                end.processCpuNanos - start.processCpuNanos - (samplerCpu == null ? 0 : samplerCpu);
        long wall = end.nanos - start.nanos;
        long threads = used.values().stream().mapToLong(Long::longValue).sum();
        used.put(JIT, 0L);
        used.put(GC, 0L);
        addByGroup(stretch, sample -> sample.nativeCpuNanosByTid, NativeThreads::groupOf, used);
        used.put(JVM, processCpu - threads - used.get(JIT) - used.get(GC));
        used.put(GC_PAUSES, TimeUnit.MILLISECONDS.toNanos(end.gcMillis - start.gcMillis));
        used.put(IDLE, Runtime.getRuntime().availableProcessors() * wall - processCpu);
        return used;
    }

    /**
     * The process's CPU in a result of {@link #between} or {@link #stop}, less the sampler's: every
     * entry but the idle time and the GC pauses' wall time.
     */
    static long processCpu(Map<String, Long> used) {
        return used.entrySet().stream()
                .filter(e -> !e.getKey().equals(IDLE) && !e.getKey().equals(GC_PAUSES))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * Adds to {@code used}, by group, each thread's CPU at its last sample in {@code stretch} minus
     * that at the first (0 for a thread born since).
     */
    private static <K> void addByGroup(
            List<Sample> stretch,
            Function<Sample, Map<K, Long>> cpuByThread,
            Function<K, String> groupOf,
            Map<String, Long> used) {
        Map<K, Long> lastSeen = new HashMap<>();
        for (Sample sample : stretch) {
            lastSeen.putAll(cpuByThread.apply(sample));
        }
        Map<K, Long> atStart = cpuByThread.apply(stretch.get(0));
        lastSeen.forEach(
                (thread, cpu) ->
                        used.merge(
                                groupOf.apply(thread),
                                cpu - atStart.getOrDefault(thread, 0L),
                                Long::sum));
    }

    /** The wall time between the first and the last sample. */
    synchronized long wallNanos() {
        return samples.get(samples.size() - 1).nanos - samples.get(0).nanos;
    }

    private static String groupOf(String threadName) {
        if (threadName.equals(SAMPLER)) {
            return SAMPLER;
        }
        if (threadName.startsWith("Source Data Fetcher")) {
            return FETCHER;
        }
        if (threadName.startsWith("Source: ")) {
            return TASK;
        }
        if (threadName.startsWith("iggy-sink-sender")) {
            return SENDER;
        }
        // the exactly-once committer's task, named after its chain's head
        if (threadName.startsWith("Sink: Iggy Commit Handoff")) {
            return COMMITTER;
        }
        if (threadName.startsWith("multiThreadIoEventLoopGroup")) {
            return SDK;
        }
        if (threadName.startsWith("CompletableFutureDelayScheduler")) {
            return TIMEOUTS;
        }
        if (threadName.startsWith("iggy-embedded")) {
            return SERVER;
        }
        if (threadName.startsWith(LOOP_THREAD_PREFIX)) {
            return LOOP;
        }
        return REST;
    }

    /** "fetcher 0.3, task 0.1, ..." with {@code nanos} divided by {@code per}, one decimal. */
    static String format(Map<String, Long> nanos, double per) {
        StringBuilder text = new StringBuilder();
        nanos.forEach(
                (group, value) -> {
                    if (value != 0) {
                        text.append(text.length() > 0 ? ", " : "")
                                .append(group)
                                .append(' ')
                                .append(String.format("%.1f", value / per));
                    }
                });
        return text.toString();
    }

    /** The CPU time the JIT compiler threads alive now have used (0 without /proc). */
    static long jitCpuNanos() {
        long total = 0;
        for (Map.Entry<String, Long> thread : NativeThreads.cpuNanosByTid().entrySet()) {
            if (JIT.equals(NativeThreads.groupOf(thread.getKey()))) {
                total += thread.getValue();
            }
        }
        return total;
    }

    /**
     * The JVM's JIT compiler and garbage collector threads, read from {@code /proc/self/task}: each
     * thread's name from {@code comm} (once per thread), its CPU time in nanoseconds from {@code
     * schedstat}. Nothing where that does not exist.
     */
    private static final class NativeThreads {
        private static final Path TASKS = Paths.get("/proc/self/task");

        /** Listing hundreds of threads every sample would cost more than the sample itself. */
        private static final int SAMPLES_PER_LISTING = 10;

        private static final Map<String, String> GROUP_BY_TID = new HashMap<>();
        private static final List<String> WATCHED = new ArrayList<>();
        private static int samplesSinceListing = SAMPLES_PER_LISTING;

        /** The CPU time of every JIT compiler and GC thread alive now, by thread id. */
        static synchronized Map<String, Long> cpuNanosByTid() {
            Map<String, Long> cpu = new HashMap<>();
            if (!Files.isDirectory(TASKS)) {
                return cpu;
            }
            if (++samplesSinceListing >= SAMPLES_PER_LISTING) {
                samplesSinceListing = 0;
                list();
            }
            for (String tid : WATCHED) {
                long nanos = runNanos(TASKS.resolve(tid));
                if (nanos >= 0) {
                    cpu.put(tid, nanos);
                }
            }
            return cpu;
        }

        /** Finds threads born since the last listing; a thread born late counts from its birth. */
        private static void list() {
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
                for (Path task : tasks) {
                    String tid = task.getFileName().toString();
                    if (!GROUP_BY_TID.containsKey(tid)) {
                        String group = nameGroup(task);
                        GROUP_BY_TID.put(tid, group);
                        if (!group.isEmpty()) {
                            WATCHED.add(tid);
                        }
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                // Threads not found count as JVM (other).
            }
        }

        static synchronized String groupOf(String tid) {
            return GROUP_BY_TID.get(tid);
        }

        /** {@link #JIT}, {@link #GC}, or "" for every other thread (and one that ended). */
        private static String nameGroup(Path task) {
            String name;
            try {
                name = Files.readString(task.resolve("comm")).strip();
            } catch (IOException e) {
                return "";
            }
            if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                return JIT;
            }
            if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
                return GC;
            }
            return "";
        }

        /** The thread's time on a CPU so far, or -1 if it ended. */
        private static long runNanos(Path task) {
            try {
                String schedstat = Files.readString(task.resolve("schedstat"));
                return Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
    }
}
