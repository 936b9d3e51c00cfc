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

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;

import javax.annotation.Nullable;

import java.util.Collections;
import java.util.List;

/**
 * What the Iggy catalog does not have of Flink's catalog contract: views, renaming tables, database
 * properties, partitions (an Iggy topic's partitions are not Flink's), functions and statistics.
 * Reads answer "none" (statistics "unknown"), writes fail naming what to do instead. Extends
 * Flink's {@link AbstractCatalog} because Flink 2.0's table lineage casts every catalog of a sink
 * table to it.
 */
@Internal
abstract class TablesOnlyCatalog extends AbstractCatalog {

    private static final String NO_STATISTICS = "The Iggy catalog stores no statistics.";

    final String catalogName;

    /** A subclass answers {@link #getDefaultDatabase()}: "-" only fills Flink's required name. */
    TablesOnlyCatalog(String catalogName, @Nullable String defaultDatabase) {
        super(catalogName, defaultDatabase == null ? "-" : defaultDatabase);
        this.catalogName = catalogName;
    }

    @Override
    public void alterDatabase(String databaseName, CatalogDatabase newDatabase, boolean ignore) {
        throw new UnsupportedOperationException(
                "ALTER DATABASE is not supported: an Iggy stream has no properties or comment.");
    }

    @Override
    public void renameTable(ObjectPath tablePath, String newTableName, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException(
                "ALTER TABLE RENAME is not supported by the Iggy catalog: the table name is the"
                        + " topic name.");
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath)
            throws TableNotExistException, TableNotPartitionedException {
        throw notPartitioned(tablePath);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws TableNotExistException, TableNotPartitionedException {
        throw notPartitioned(tablePath);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(
            ObjectPath tablePath, List<Expression> filters)
            throws TableNotExistException, TableNotPartitionedException {
        throw notPartitioned(tablePath);
    }

    @Override
    public CatalogPartition getPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
            throws PartitionNotExistException {
        throw new PartitionNotExistException(catalogName, tablePath, partitionSpec);
    }

    @Override
    public boolean partitionExists(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
        return false;
    }

    @Override
    public void createPartition(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition partition,
            boolean ignoreIfExists)
            throws TableNotExistException, TableNotPartitionedException {
        throw notPartitioned(tablePath);
    }

    @Override
    public void dropPartition(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec, boolean ignoreIfNotExists)
            throws PartitionNotExistException {
        if (!ignoreIfNotExists) {
            throw new PartitionNotExistException(catalogName, tablePath, partitionSpec);
        }
    }

    @Override
    public void alterPartition(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogPartition newPartition,
            boolean ignoreIfNotExists)
            throws PartitionNotExistException {
        if (!ignoreIfNotExists) {
            throw new PartitionNotExistException(catalogName, tablePath, partitionSpec);
        }
    }

    @Override
    public List<String> listViews(String databaseName) throws DatabaseNotExistException {
        return noneIn(databaseName);
    }

    @Override
    public List<String> listFunctions(String databaseName) throws DatabaseNotExistException {
        return noneIn(databaseName);
    }

    private List<String> noneIn(String databaseName) throws DatabaseNotExistException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(catalogName, databaseName);
        }
        return Collections.emptyList();
    }

    @Override
    public CatalogFunction getFunction(ObjectPath functionPath) throws FunctionNotExistException {
        throw new FunctionNotExistException(catalogName, functionPath);
    }

    @Override
    public boolean functionExists(ObjectPath functionPath) {
        return false;
    }

    @Override
    public void createFunction(
            ObjectPath functionPath, CatalogFunction function, boolean ignoreIfExists) {
        throw new UnsupportedOperationException(
                "The Iggy catalog stores no functions: create a temporary function instead.");
    }

    @Override
    public void alterFunction(
            ObjectPath functionPath, CatalogFunction newFunction, boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException("The Iggy catalog stores no functions.");
    }

    @Override
    public void dropFunction(ObjectPath functionPath, boolean ignoreIfNotExists)
            throws FunctionNotExistException {
        if (!ignoreIfNotExists) {
            throw new FunctionNotExistException(catalogName, functionPath);
        }
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath tablePath) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath tablePath) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(
            ObjectPath tablePath, CatalogTableStatistics tableStatistics, boolean ignore) {
        throw new UnsupportedOperationException(NO_STATISTICS);
    }

    @Override
    public void alterTableColumnStatistics(
            ObjectPath tablePath, CatalogColumnStatistics columnStatistics, boolean ignore) {
        throw new UnsupportedOperationException(NO_STATISTICS);
    }

    @Override
    public void alterPartitionStatistics(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogTableStatistics partitionStatistics,
            boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException(NO_STATISTICS);
    }

    @Override
    public void alterPartitionColumnStatistics(
            ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec,
            CatalogColumnStatistics columnStatistics,
            boolean ignoreIfNotExists) {
        throw new UnsupportedOperationException(NO_STATISTICS);
    }

    private TableNotPartitionedException notPartitioned(ObjectPath tablePath)
            throws TableNotExistException {
        if (!tableExists(tablePath)) {
            throw new TableNotExistException(catalogName, tablePath);
        }
        return new TableNotPartitionedException(catalogName, tablePath);
    }
}
