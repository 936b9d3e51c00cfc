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

import org.apache.flink.annotation.PublicEvolving;

/**
 * A FLUSH_UNSAVED_BUFFER request (command 102) the server answered with success: the partition, by
 * the names its stream and topic had then, and whether the client asked for an fsync. The in-JVM
 * server keeps messages in memory and does no I/O for it; tests read {@link
 * EmbeddedIggyServer#flushRequests()} to see which partitions a client asked to make durable.
 */
@PublicEvolving
public record FlushRequest(String stream, String topic, long partition, boolean fsync) {}
