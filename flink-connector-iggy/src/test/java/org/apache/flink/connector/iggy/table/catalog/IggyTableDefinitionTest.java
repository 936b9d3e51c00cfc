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
package org.apache.flink.connector.iggy.table.catalog;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.exceptions.CatalogException;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IggyTableDefinitionTest {

    private static final String FIXTURE = "serializer/iggy-table-definition-v1.bin";

    /** The table stored in {@link #FIXTURE}. */
    static ResolvedCatalogTable fixtureTable() {
        ResolvedSchema schema =
                new ResolvedSchema(
                        List.of(
                                Column.physical("id", DataTypes.STRING().notNull()),
                                Column.physical("amount", DataTypes.DECIMAL(10, 2)),
                                Column.metadata(
                                        "off", DataTypes.BIGINT().notNull(), "offset", true)),
                        Collections.emptyList(),
                        UniqueConstraint.primaryKey("pk", List.of("id")));
        CatalogTable table =
                CatalogTable.newBuilder()
                        .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                        .comment("orders by id")
                        .options(Map.of("connector", "upsert-iggy"))
                        .build();
        return new ResolvedCatalogTable(table, schema);
    }

    static Map<String, String> fixtureOptions() {
        return Map.of("connector", "upsert-iggy", "key.format", "raw", "format", "json");
    }

    @Test
    void version1FixtureIsStableByteForByte() throws IOException {
        byte[] stored = fixture();
        assertThat(IggyTableDefinitions.serialize(fixtureTable(), fixtureOptions()))
                .isEqualTo(stored);

        CatalogTable read = IggyTableDefinitions.deserialize(stored, "`iggy`.`shop`.`orders`");
        assertThat(read.getOptions()).isEqualTo(fixtureOptions());
        assertThat(read.getComment()).isEqualTo("orders by id");
        assertThat(read.getUnresolvedSchema().toString())
                .contains(
                        "`id` [VARCHAR(2147483647) NOT NULL]",
                        "`amount` [DECIMAL(10, 2)]",
                        "`off` ",
                        "METADATA FROM 'offset' VIRTUAL",
                        "CONSTRAINT `pk` PRIMARY KEY (`id`) NOT ENFORCED");
    }

    @Test
    void newerVersionNamesTheTableAndTheFix() throws IOException {
        byte[] newer = fixture();
        newer[3] = 2; // the version int, big-endian
        assertThatThrownBy(() -> IggyTableDefinitions.deserialize(newer, "`iggy`.`shop`.`orders`"))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("`iggy`.`shop`.`orders`")
                .hasMessageContaining("format version 2")
                .hasMessageContaining("newer connector");
    }

    @Test
    void truncatedOrGarbledDefinitionNamesTheTable() throws IOException {
        byte[] stored = fixture();
        for (byte[] bad :
                List.of(
                        Arrays.copyOf(stored, stored.length - 3),
                        new byte[] {0, 0, 0, 1, 0x7f, 0, 0, 0},
                        new byte[0],
                        withTrailingByte(stored),
                        new byte[] {0, 0, 0, 1, -1, -1, -1, -1})) {
            assertThatThrownBy(() -> IggyTableDefinitions.deserialize(bad, "`iggy`.`s`.`t`"))
                    .isInstanceOf(CatalogException.class)
                    .hasMessageContaining("`iggy`.`s`.`t`")
                    .hasMessageContaining("cannot be read")
                    .hasMessageContaining("DROP TABLE");
        }
    }

    private static byte[] withTrailingByte(byte[] stored) {
        byte[] longer = Arrays.copyOf(stored, stored.length + 1);
        longer[stored.length] = 1;
        return longer;
    }

    private static byte[] fixture() throws IOException {
        try (InputStream in =
                IggyTableDefinitionTest.class.getClassLoader().getResourceAsStream(FIXTURE)) {
            assertThat(in).as("fixture %s", FIXTURE).isNotNull();
            return in.readAllBytes();
        }
    }
}
