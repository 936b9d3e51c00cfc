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
package org.apache.flink.connector.iggy.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the Maven of the running build ({@code playground-it.maven-home}, else {@code mvn} on the
 * path) in a folder, as a user would run it there, in batch mode and without colours.
 */
final class Maven {

    private Maven() {}

    /** Runs {@code mvn -B arguments} in {@code folder}; fails if it does not end in time. */
    static EndedProcess run(Path folder, Duration timeout, List<String> arguments)
            throws IOException, InterruptedException {
        String home = System.getProperty("playground-it.maven-home", "");
        List<String> command = new ArrayList<>();
        command.add(home.isEmpty() ? "mvn" : Path.of(home, "bin", "mvn").toString());
        command.add("-B");
        command.add("-Dstyle.color=never");
        command.addAll(arguments);
        return EndedProcess.run(new ProcessBuilder(command).directory(folder.toFile()), timeout);
    }
}
