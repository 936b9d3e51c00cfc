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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The counted steady rates of two jobs run alternately and their ratios, for a benchmark row "job a
 * ÷ job b": the medians and the ratio's range. Main thread only.
 */
final class RatioRow {

    private final List<Double> ratios = new ArrayList<>();
    private final List<Double> aRates = new ArrayList<>();
    private final List<Double> bRates = new ArrayList<>();

    /** A counted repetition's steady rates. */
    void add(double aRate, double bRate) {
        ratios.add(aRate / bRate);
        aRates.add(aRate);
        bRates.add(bRate);
    }

    /** Prints "median<label>: a ... rec/s, b ... rec/s, ratio ... (range ...)", if any counted. */
    void printMedians(String label, String a, String b) {
        if (ratios.isEmpty()) {
            return;
        }
        System.out.printf(
                "median%s: %s %,.0f rec/s, %s %,.0f rec/s, ratio %.3f (range %.3f to %.3f)%n",
                label,
                a,
                SourceBenchmarkSetup.median(aRates),
                b,
                SourceBenchmarkSetup.median(bRates),
                SourceBenchmarkSetup.median(ratios),
                Collections.min(ratios),
                Collections.max(ratios));
    }
}
