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

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.state.CompositeKeySerializationUtils;
import org.apache.flink.runtime.state.FullSnapshotUtil;
import org.apache.flink.runtime.state.IncrementalKeyedStateHandle.HandleAndLocalPath;
import org.apache.flink.runtime.state.IncrementalRemoteKeyedStateHandle;
import org.apache.flink.runtime.state.KeyGroupsSavepointStateHandle;
import org.apache.flink.runtime.state.KeyGroupsStateHandle;
import org.apache.flink.runtime.state.KeyedBackendSerializationProxy;
import org.apache.flink.runtime.state.KeyedStateHandle;
import org.apache.flink.runtime.state.StreamStateHandle;
import org.apache.flink.runtime.state.filesystem.AbstractFsCheckpointStorageAccess;
import org.apache.flink.runtime.state.metainfo.StateMetaInfoSnapshot;
import org.apache.flink.runtime.state.metainfo.StateMetaInfoSnapshot.CommonSerializerKeys;

import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.TableProperties;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keyed state of the keyed-map sink's reconcile operator in one completed snapshot, split byte
 * by byte into what is whose: the serialized keys, the connector's values ({@code
 * ReconcileStateSerializer}), Flink's framing of each entry, and the rest of the snapshot. It reads
 * the snapshot files themselves, so the figures are measured, not derived from the format.
 *
 * <ul>
 *   <li>Heap checkpoint (HeapSnapshotStrategy): per entry the namespace (1 byte), key and value.
 *   <li>RocksDB checkpoint (native SST files): a RocksDB key of key-group prefix, key and namespace
 *       byte; a value of exactly the serialized state. RocksDB adds its own framing, read from the
 *       SST table properties.
 *   <li>Canonical savepoint (FullSnapshotAsyncWriter, the same on both backends): the RocksDB key
 *       and value, each after a 4-byte length.
 * </ul>
 */
final class ReconcileStateSize {

    final String snapshot;

    /** What Flink frames each entry with, in this kind of snapshot. */
    final String framing;

    final long totalBytes;
    long keys;
    long keyBytes;
    long valueBytes;

    /** Flink's bytes around each entry: namespace, key-group prefix, length prefixes. */
    long framingBytes;

    /** The rest of the snapshot, by what it is; sums to total − key − value − framing. */
    final Map<String, Long> rest = new LinkedHashMap<>();

    private ReconcileStateSize(String snapshot, String framing, long totalBytes) {
        this.snapshot = snapshot;
        this.framing = framing;
        this.totalBytes = totalBytes;
    }

    /** Reads the reconcile operator's keyed state of the snapshot at {@code pointer}. */
    static ReconcileStateSize read(String snapshot, String pointer, Path scratch)
            throws IOException {
        KeyedStateHandle handle = reconcileState(pointer);
        long total = handle.getStateSize();
        ReconcileStateSize size;
        if (handle instanceof KeyGroupsSavepointStateHandle) {
            size =
                    new ReconcileStateSize(
                            snapshot,
                            "key-group prefix and namespace byte, 4-byte key and value lengths",
                            total);
            size.readCanonicalSavepoint((KeyGroupsStateHandle) handle);
        } else if (handle instanceof KeyGroupsStateHandle) {
            size = new ReconcileStateSize(snapshot, "namespace byte", total);
            size.readHeapCheckpoint((KeyGroupsStateHandle) handle);
        } else if (handle instanceof IncrementalRemoteKeyedStateHandle) {
            size = new ReconcileStateSize(snapshot, "key-group prefix and namespace byte", total);
            size.readRocksDbCheckpoint((IncrementalRemoteKeyedStateHandle) handle, scratch);
        } else {
            throw new IllegalStateException("unexpected keyed state handle " + handle);
        }
        long accounted = size.keyBytes + size.valueBytes + size.framingBytes + size.restBytes();
        if (accounted != size.totalBytes) {
            throw new IllegalStateException(
                    snapshot + ": " + accounted + " bytes accounted of " + size.totalBytes);
        }
        return size;
    }

    /**
     * A table of bytes per key, one row per snapshot: total, serialized key, and what is beyond the
     * key split into the connector's value, Flink's framing of the entry and the rest of the
     * snapshot; then what each framing and rest is.
     */
    static void print(List<ReconcileStateSize> sizes) {
        System.out.printf(
                "%-46s %6s %5s %11s = %5s + %7s + %5s%n",
                String.format("reconcile state, bytes per key (%,d keys)", sizes.get(0).keys),
                "total",
                "key",
                "beyond key",
                "value",
                "framing",
                "rest");
        for (ReconcileStateSize s : sizes) {
            double n = s.keys;
            System.out.printf(
                    "  %-44s %6.1f %5.1f %11.1f = %5.1f + %7.1f + %5.1f%n",
                    s.snapshot,
                    s.totalBytes / n,
                    s.keyBytes / n,
                    (s.totalBytes - s.keyBytes) / n,
                    s.valueBytes / n,
                    s.framingBytes / n,
                    s.restBytes() / n);
        }
        System.out.println(
                "  key: the serialized key (StringSerializer: length varint + 1 B per ASCII char);"
                        + " value: the connector's ReconcileStateSerializer bytes");
        for (ReconcileStateSize s : sizes) {
            StringBuilder rest = new StringBuilder();
            for (Map.Entry<String, Long> part : s.rest.entrySet()) {
                rest.append(rest.length() == 0 ? "" : ", ")
                        .append(
                                String.format(
                                        "%s %.2f",
                                        part.getKey(), part.getValue() / (double) s.keys));
            }
            System.out.printf("  %s: framing = %s; rest = %s%n", s.snapshot, s.framing, rest);
        }
    }

    private long restBytes() {
        long sum = 0;
        for (long part : rest.values()) {
            sum += part;
        }
        return sum;
    }

    /** The only keyed state in the job is the reconcile operator's (sources keep none). */
    private static KeyedStateHandle reconcileState(String pointer) throws IOException {
        CheckpointMetadata metadata;
        try (InputStream in =
                AbstractFsCheckpointStorageAccess.resolveCheckpointPointer(pointer)
                        .getMetadataHandle()
                        .openInputStream()) {
            metadata =
                    Checkpoints.loadCheckpointMetadata(
                            new DataInputStream(in),
                            ReconcileStateSize.class.getClassLoader(),
                            pointer);
        }
        List<KeyedStateHandle> keyed = new ArrayList<>();
        for (OperatorState operator : metadata.getOperatorStates()) {
            for (OperatorSubtaskState subtask : operator.getStates()) {
                keyed.addAll(subtask.getManagedKeyedState());
            }
        }
        if (keyed.size() != 1) {
            throw new IllegalStateException(
                    "expected the reconcile operator's keyed state only, found " + keyed);
        }
        return keyed.get(0);
    }

    private void readHeapCheckpoint(KeyGroupsStateHandle handle) throws IOException {
        byte[] bytes = readAll(handle);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        KeyedBackendSerializationProxy<String> proxy = readProxy(in);
        List<StateMetaInfoSnapshot> states = proxy.getStateMetaInfoSnapshots();
        TypeSerializer<String> keySerializer = proxy.getKeySerializerSnapshot().restoreSerializer();
        rest.put("state meta data", (long) in.getPosition());
        long headers = 0;
        for (Tuple2<Integer, Long> keyGroup : handle.getGroupRangeOffsets()) {
            in = at(bytes, keyGroup.f1);
            in.readInt(); // key group id
            headers += 4;
            for (int i = 0; i < states.size(); i++) {
                StateMetaInfoSnapshot state = states.get(in.readShort());
                int count = in.readInt();
                headers += 2 + 4;
                if (count > 0) {
                    TypeSerializer<?> namespaces =
                            reconcileSerializer(state, CommonSerializerKeys.NAMESPACE_SERIALIZER);
                    TypeSerializer<?> values =
                            reconcileSerializer(state, CommonSerializerKeys.VALUE_SERIALIZER);
                    for (int e = 0; e < count; e++) {
                        int start = in.getPosition();
                        namespaces.deserialize(in);
                        int afterNamespace = in.getPosition();
                        keySerializer.deserialize(in);
                        int afterKey = in.getPosition();
                        values.deserialize(in);
                        keys++;
                        framingBytes += afterNamespace - start;
                        keyBytes += afterKey - afterNamespace;
                        valueBytes += in.getPosition() - afterKey;
                    }
                }
            }
        }
        rest.put("key-group headers (id, per state: id and entry count)", headers);
    }

    private void readCanonicalSavepoint(KeyGroupsStateHandle handle) throws IOException {
        byte[] bytes = readAll(handle);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        KeyedBackendSerializationProxy<String> proxy = readProxy(in);
        TypeSerializer<String> keySerializer = proxy.getKeySerializerSnapshot().restoreSerializer();
        int prefix = keyGroupPrefixBytes(handle);
        rest.put("state meta data", (long) in.getPosition());
        long marks = 0;
        for (Tuple2<Integer, Long> keyGroup : handle.getGroupRangeOffsets()) {
            if (keyGroup.f1 == 0) {
                continue; // a key group without entries has no offset
            }
            in = at(bytes, keyGroup.f1);
            in.readShort(); // the state id of the entries that follow
            marks += 2;
            boolean endOfKeyGroup = false;
            while (!endOfKeyGroup) {
                byte[] key = new byte[in.readInt()];
                in.readFully(key);
                int valueLength = in.readInt();
                in.skipBytesToRead(valueLength);
                keys++;
                int serializedKey = serializedKeyLength(key, prefix, keySerializer);
                keyBytes += serializedKey;
                valueBytes += valueLength;
                framingBytes += 4 + 4 + key.length - serializedKey;
                if (FullSnapshotUtil.hasMetaDataFollowsFlag(key)) {
                    // The end mark, or the id of another state, which only the reconcile state
                    // could be: no other state has entries.
                    endOfKeyGroup =
                            (in.readShort() & 0xFFFF) == FullSnapshotUtil.END_OF_KEY_GROUP_MARK;
                    marks += 2;
                    if (!endOfKeyGroup) {
                        throw new IllegalStateException("entries of a second state");
                    }
                }
            }
        }
        rest.put("key-group state ids and end marks", marks);
    }

    private void readRocksDbCheckpoint(IncrementalRemoteKeyedStateHandle handle, Path scratch)
            throws IOException {
        KeyedBackendSerializationProxy<String> proxy =
                readProxy(new DataInputDeserializer(readAll(handle.getMetaDataStateHandle())));
        TypeSerializer<String> keySerializer = proxy.getKeySerializerSnapshot().restoreSerializer();
        String reconcileState = reconcileStateName(proxy.getStateMetaInfoSnapshots());
        int prefix = keyGroupPrefixBytes(handle);
        long userKeys = 0;
        long values = 0;
        long olderVersions = 0;
        long trailers = 0;
        long dataBlocks = 0;
        long sstFiles = 0;
        long otherFiles = handle.getMetaDataStateHandle().getStateSize();
        List<HandleAndLocalPath> files = new ArrayList<>(handle.getSharedState());
        files.addAll(handle.getPrivateState());
        // Newest first: RocksDB numbers its files in order, so the first version seen of a key
        // is its current one and any later one is an older version awaiting compaction.
        files.sort(Comparator.comparing(HandleAndLocalPath::getLocalPath).reversed());
        Set<ByteBuffer> seen = new HashSet<>();
        RocksDB.loadLibrary();
        for (HandleAndLocalPath file : files) {
            if (!file.getLocalPath().endsWith(".sst")) {
                otherFiles += file.getStateSize();
                continue;
            }
            Path copy = scratch.resolve(file.getLocalPath());
            try (InputStream in = file.getHandle().openInputStream()) {
                Files.copy(in, copy);
            }
            try (Options options = new Options();
                    SstFileReader reader = new SstFileReader(options);
                    ReadOptions read = new ReadOptions()) {
                reader.open(copy.toString());
                TableProperties table = reader.getTableProperties();
                String family = new String(table.getColumnFamilyName(), StandardCharsets.UTF_8);
                long fileKeys = 0;
                try (SstFileReaderIterator it = reader.newIterator(read)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        byte[] key = it.key();
                        int value = it.value().length;
                        fileKeys += key.length;
                        values += value;
                        if (!seen.add(ByteBuffer.wrap(key))) {
                            olderVersions += key.length + value;
                            continue;
                        }
                        int serializedKey = serializedKeyLength(key, prefix, keySerializer);
                        keys++;
                        keyBytes += serializedKey;
                        framingBytes += key.length - serializedKey;
                        valueBytes += value;
                    }
                }
                if (table.getNumEntries() > 0 && !family.equals(reconcileState)) {
                    throw new IllegalStateException("unexpected column family " + family);
                }
                userKeys += fileKeys;
                trailers += table.getRawKeySize() - fileKeys;
                dataBlocks += table.getDataSize();
                sstFiles += file.getStateSize();
            } catch (org.rocksdb.RocksDBException e) {
                throw new IOException("cannot read " + file.getLocalPath(), e);
            } finally {
                Files.delete(copy);
            }
        }
        rest.put("older versions of keys, not compacted away yet", olderVersions);
        rest.put("RocksDB internal key trailers (sequence number, type)", trailers);
        rest.put(
                "SST block encoding (lengths, restarts, shared key prefixes) and compression",
                dataBlocks - userKeys - trailers - values);
        rest.put("SST index, properties, footer", sstFiles - dataBlocks);
        rest.put("MANIFEST, OPTIONS, CURRENT files and Flink's state meta data", otherFiles);
    }

    private static KeyedBackendSerializationProxy<String> readProxy(DataInputDeserializer in)
            throws IOException {
        KeyedBackendSerializationProxy<String> proxy =
                new KeyedBackendSerializationProxy<>(ReconcileStateSize.class.getClassLoader());
        proxy.read(in);
        if (proxy.isUsingKeyGroupCompression()) {
            throw new IllegalStateException("snapshot compression is on; sizes would be wrong");
        }
        return proxy;
    }

    /** A serializer of the one state with entries, the reconcile operator's value state. */
    private static TypeSerializer<?> reconcileSerializer(
            StateMetaInfoSnapshot state, CommonSerializerKeys which) {
        if (state.getBackendStateType() != StateMetaInfoSnapshot.BackendStateType.KEY_VALUE) {
            throw new IllegalStateException("unexpected entries in " + state.getName());
        }
        return state.getTypeSerializerSnapshot(which).restoreSerializer();
    }

    private static String reconcileStateName(List<StateMetaInfoSnapshot> states) {
        List<String> names = new ArrayList<>();
        for (StateMetaInfoSnapshot state : states) {
            if (state.getBackendStateType() == StateMetaInfoSnapshot.BackendStateType.KEY_VALUE) {
                names.add(state.getName());
            }
        }
        if (names.size() != 1) {
            throw new IllegalStateException("expected one value state, found " + names);
        }
        return names.get(0);
    }

    /** Bytes of the serialized key inside a RocksDB key: key-group prefix, key, namespace. */
    private static int serializedKeyLength(
            byte[] rocksDbKey, int prefix, TypeSerializer<String> keySerializer)
            throws IOException {
        DataInputDeserializer in =
                new DataInputDeserializer(rocksDbKey, prefix, rocksDbKey.length - prefix);
        keySerializer.deserialize(in);
        return in.getPosition() - prefix;
    }

    private static int keyGroupPrefixBytes(KeyedStateHandle handle) {
        return CompositeKeySerializationUtils.computeRequiredBytesInKeyGroupPrefix(
                handle.getKeyGroupRange().getNumberOfKeyGroups());
    }

    private static DataInputDeserializer at(byte[] bytes, long offset) {
        return new DataInputDeserializer(bytes, (int) offset, bytes.length - (int) offset);
    }

    private static byte[] readAll(StreamStateHandle handle) throws IOException {
        try (InputStream in = handle.openInputStream()) {
            return in.readAllBytes();
        }
    }
}
