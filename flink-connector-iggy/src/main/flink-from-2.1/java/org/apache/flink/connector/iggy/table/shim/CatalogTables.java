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
package org.apache.flink.connector.iggy.table.shim;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.catalog.CatalogPropertiesUtil;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.expressions.DefaultSqlFactory;

import java.util.Map;

/**
 * Catalog calls whose signature differs between Flink lines: here those of 2.1 and later, which
 * take the SQL factory that renders computed columns and watermarks.
 */
@Internal
public final class CatalogTables {

    private CatalogTables() {}

    /** Flink's property form of {@code table} (schema, comment, partition keys, options). */
    public static Map<String, String> toProperties(ResolvedCatalogTable table) {
        return CatalogPropertiesUtil.serializeCatalogTable(table, DefaultSqlFactory.INSTANCE);
    }
}
