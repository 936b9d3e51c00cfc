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
package org.apache.flink.connector.iggy.source.reader;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.fetcher.SingleThreadFetcherManager;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcher;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcherTask;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.iggy.source.IggyMessage;
import org.apache.flink.connector.iggy.source.split.IggyPartitionSplit;

import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;

/**
 * The one fetcher of a source reader, which also stores offsets: the task thread hands them over as
 * a task run between two fetches, so that every request is sent from the fetcher thread. With no
 * fetcher running (every split finished), one is started for the task.
 */
@Internal
final class IggySourceFetcherManager
        extends SingleThreadFetcherManager<IggyMessage, IggyPartitionSplit> {

    IggySourceFetcherManager(
            Supplier<SplitReader<IggyMessage, IggyPartitionSplit>> splitReaders,
            Configuration config) {
        super(splitReaders, config);
    }

    /** Task thread. */
    void storeOffsets(List<OffsetStore.PartitionOffset> offsets) {
        SplitFetcher<IggyMessage, IggyPartitionSplit> running = getRunningFetcher();
        SplitFetcher<IggyMessage, IggyPartitionSplit> fetcher =
                running != null ? running : createSplitFetcher();
        enqueueStore(fetcher, offsets);
        if (running == null) {
            startFetcher(fetcher);
        }
    }

    private static void enqueueStore(
            SplitFetcher<IggyMessage, IggyPartitionSplit> fetcher,
            List<OffsetStore.PartitionOffset> offsets) {
        IggyPartitionSplitReader reader = (IggyPartitionSplitReader) fetcher.getSplitReader();
        reader.offerOffsets(offsets);
        fetcher.enqueueTask(
                new SplitFetcherTask() {
                    @Override
                    public boolean run() throws IOException {
                        reader.storeOffsets();
                        return true;
                    }

                    @Override
                    public void wakeUp() {
                        reader.wakeUp();
                    }
                });
    }
}
