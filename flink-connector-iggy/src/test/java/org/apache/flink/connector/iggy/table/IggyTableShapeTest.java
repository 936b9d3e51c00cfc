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
package org.apache.flink.connector.iggy.table;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.DataType;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which physical columns the key and value formats see. */
class IggyTableShapeTest {

    private static final DataType ROW =
            DataTypes.ROW(
                            DataTypes.FIELD("k_id", DataTypes.INT()),
                            DataTypes.FIELD("name", DataTypes.STRING()),
                            DataTypes.FIELD("k_region", DataTypes.STRING()))
                    .notNull();

    private static Configuration options(String... keysAndValues) {
        Configuration options = new Configuration();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            options.setString(keysAndValues[i], keysAndValues[i + 1]);
        }
        return options;
    }

    @Test
    void keyFieldsArePositionsInTheirOrder() {
        assertThat(
                        IggyTableShape.keyColumns(
                                options("key.fields", "k_region;k_id", "key.format", "json"), ROW))
                .containsExactly(2, 0);
        assertThat(IggyTableShape.keyColumns(options(), ROW)).isEmpty();
    }

    @Test
    void keyFieldsAndKeyFormatComeTogetherAndNameRealColumns() {
        assertThatThrownBy(() -> IggyTableShape.keyColumns(options("key.format", "json"), ROW))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("'key.format' needs 'key.fields'");
        assertThatThrownBy(() -> IggyTableShape.keyColumns(options("key.fields", "k_id"), ROW))
                .hasMessageContaining("'key.fields' needs 'key.format'");
        assertThatThrownBy(
                        () ->
                                IggyTableShape.keyColumns(
                                        options("key.fields", "nope", "key.format", "json"), ROW))
                .hasMessageContaining("names 'nope', which is not a physical column")
                .hasMessageContaining("[k_id, name, k_region]");
        assertThatThrownBy(
                        () ->
                                IggyTableShape.keyColumns(
                                        options(
                                                "key.fields", "name",
                                                "key.format", "json",
                                                "key.fields-prefix", "k_"),
                                        ROW))
                .hasMessageContaining("Key column 'name' does not start with");
    }

    @Test
    void aPrimaryKeyIsRequiredForUpsertAndKeepsThePrefix() {
        assertThat(IggyTableShape.primaryKeyColumns(options(), ROW, new int[] {0}))
                .containsExactly(0);
        assertThatThrownBy(() -> IggyTableShape.primaryKeyColumns(options(), ROW, new int[0]))
                .hasMessageContaining("upsert-iggy needs a PRIMARY KEY");
        assertThatThrownBy(
                        () ->
                                IggyTableShape.primaryKeyColumns(
                                        options("key.fields-prefix", "k_"), ROW, new int[] {1}))
                .hasMessageContaining("Key column 'name' does not start with");
    }

    @Test
    void theValueHasAllColumnsOrThoseOutsideTheKey() {
        assertThat(IggyTableShape.valueColumns(options(), ROW, new int[] {0}))
                .containsExactly(0, 1, 2);
        assertThat(
                        IggyTableShape.valueColumns(
                                options("value.fields-include", "EXCEPT_KEY"), ROW, new int[] {0}))
                .containsExactly(1, 2);
        assertThatThrownBy(
                        () ->
                                IggyTableShape.valueColumns(
                                        options("value.fields-include", "EXCEPT_KEY"),
                                        ROW,
                                        new int[] {0, 1, 2}))
                .hasMessageContaining("leaves no column for the payload");
        assertThatThrownBy(
                        () ->
                                IggyTableShape.valueColumns(
                                        options("key.fields-prefix", "k_"), ROW, new int[] {0}))
                .hasMessageContaining("'key.fields-prefix' requires 'value.fields-include'");
    }

    @Test
    void theKeyHeaderHasOneTo255Bytes() {
        assertThat(IggyTableShape.checkedKeyHeader(options("key.header", "k"))).isEqualTo("k");
        assertThatThrownBy(() -> IggyTableShape.checkedKeyHeader(options("key.header", "")))
                .hasMessage("Option 'key.header' must have 1 to 255 bytes.");
        assertThatThrownBy(
                        () ->
                                IggyTableShape.checkedKeyHeader(
                                        options("key.header", "é".repeat(128))))
                .hasMessageContaining("1 to 255 bytes");
    }

    @Test
    void aFormatSeesTheProjectedColumnsWithoutThePrefix() {
        assertThat(IggyTableShape.formatDataType(ROW, new int[] {2, 0}, "k_"))
                .isEqualTo(
                        DataTypes.ROW(
                                        DataTypes.FIELD("region", DataTypes.STRING()),
                                        DataTypes.FIELD("id", DataTypes.INT()))
                                .notNull());
        assertThat(DataType.getFieldNames(IggyTableShape.formatDataType(ROW, new int[] {1}, null)))
                .containsExactly("name");
    }
}
