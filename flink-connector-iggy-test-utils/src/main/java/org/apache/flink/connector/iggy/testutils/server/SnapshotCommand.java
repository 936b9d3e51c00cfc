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
package org.apache.flink.connector.iggy.testutils.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * GET_SNAPSHOT (11): a zip archive with one {@code <type>.txt} entry per requested snapshot type,
 * as Iggy 0.8 answers.
 *
 * <p>Request: {@code [compression u8][count u8][type u8 × count]}. Compression 1 is stored, 2
 * deflated; 3 to 6 (bzip2, zstd, lzma, xz) are valid but the JDK cannot write them, so this server
 * answers 5 (FeatureUnavailable) for them. Types: 1 filesystem overview, 2 process list, 3 resource
 * usage, 4 test, 5 server logs, 6 server config, 100 all (types 1, 2, 3, 5 and 6; alone only).
 * Unknown codes, or "all" with another type, answer 3 (InvalidCommand).
 *
 * <p>The {@code test} entry holds {@code "test\n"}, as on a real server. The other entries are
 * empty: this server has no log files, configuration file or process data of its own to collect,
 * which is also what a real server puts there when the file it reads is missing.
 */
final class SnapshotCommand {
    private static final int COMPRESSION_STORED = 1;
    private static final int COMPRESSION_DEFLATED = 2;
    private static final int COMPRESSION_XZ = 6;
    private static final int TYPE_TEST = 4;
    private static final int TYPE_ALL = 100;

    /** Entry names by type code, as the real server names them. */
    private static final String[] TYPE_NAMES = {
        null,
        "filesystem_overview",
        "process_list",
        "resource_usage",
        "test",
        "server_logs",
        "server_config"
    };

    private static final int[] ALL_TYPES = {1, 2, 3, 5, 6};
    private static final byte[] TEST_CONTENT = "test\n".getBytes(StandardCharsets.US_ASCII);

    Reply getSnapshot(RequestReader request) {
        int compression = request.u8();
        int count = request.u8();
        List<Integer> types = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            types.add(request.u8());
        }
        if (compression < COMPRESSION_STORED || compression > COMPRESSION_XZ) {
            throw CommandException.of(
                    ErrorCodes.INVALID_COMMAND, "unknown snapshot compression " + compression);
        }
        for (int type : types) {
            if (type != TYPE_ALL && (type < 1 || type >= TYPE_NAMES.length)) {
                throw CommandException.of(
                        ErrorCodes.INVALID_COMMAND, "unknown snapshot type " + type);
            }
        }
        if (types.contains(TYPE_ALL) && types.size() > 1) {
            throw CommandException.of(
                    ErrorCodes.INVALID_COMMAND, "snapshot type 'all' must be the only type");
        }
        if (compression != COMPRESSION_STORED && compression != COMPRESSION_DEFLATED) {
            throw CommandException.of(
                    ErrorCodes.FEATURE_UNAVAILABLE,
                    "snapshot compression " + compression + " is not available in this server");
        }
        List<Integer> entries = new ArrayList<>();
        if (types.contains(TYPE_ALL)) {
            for (int type : ALL_TYPES) {
                entries.add(type);
            }
        } else {
            entries.addAll(types);
        }
        ResponseWriter out = new ResponseWriter();
        out.bytes(zip(entries, compression == COMPRESSION_STORED));
        return Reply.of(out);
    }

    private static byte[] zip(List<Integer> types, boolean stored) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (int type : types) {
                byte[] content = type == TYPE_TEST ? TEST_CONTENT : new byte[0];
                ZipEntry entry = new ZipEntry(TYPE_NAMES[type] + ".txt");
                if (stored) {
                    CRC32 crc = new CRC32();
                    crc.update(content);
                    entry.setMethod(ZipEntry.STORED);
                    entry.setSize(content.length);
                    entry.setCompressedSize(content.length);
                    entry.setCrc(crc.getValue());
                }
                zip.putNextEntry(entry);
                zip.write(content);
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a snapshot archive in memory", e);
        }
        return bytes.toByteArray();
    }
}
