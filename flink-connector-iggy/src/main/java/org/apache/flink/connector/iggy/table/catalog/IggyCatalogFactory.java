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
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.iggy.table.OptionSuggestions;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Creates an {@link IggyCatalog} for {@code CREATE CATALOG ... WITH ('type' = 'iggy', ...)}; the
 * options are {@link IggyCatalogOptions}.
 */
@Internal
public final class IggyCatalogFactory implements CatalogFactory {

    public static final String IDENTIFIER = "iggy";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.emptySet();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>(IggyCatalogOptions.CONNECTION);
        options.add(IggyCatalogOptions.DEFAULT_DATABASE);
        options.add(IggyCatalogOptions.DEFAULT_FORMAT);
        options.add(IggyCatalogOptions.DEFAULT_PARTITIONS);
        options.add(IggyCatalogOptions.DEFAULT_SCAN_STARTUP_MODE);
        options.add(IggyCatalogOptions.DEFAULT_SCAN_BOUNDED_MODE);
        options.add(IggyCatalogOptions.ALLOW_DROPS);
        return options;
    }

    @Override
    public Catalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper =
                FactoryUtil.createCatalogFactoryHelper(this, context);
        OptionSuggestions.validate(helper);
        return new IggyCatalog(
                context.getName(),
                Configuration.fromMap(context.getOptions()),
                context.getConfiguration(),
                context.getClassLoader());
    }
}
