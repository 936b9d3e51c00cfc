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
package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The names a misspelt one most likely meant, for messages about an unknown option, stream or
 * topic: {@code (did you mean 'events'?)}. Stateless.
 */
@Internal
public final class DidYouMean {

    private DidYouMean() {}

    /**
     * The candidates closest to {@code name} in edits, if close enough to be a likely misspelling:
     * at most one edit in four characters, at least one. Several only when equally close; sorted.
     */
    public static List<String> closest(String name, Collection<String> candidates) {
        int allowed = Math.max(1, name.length() / 4);
        int best = Integer.MAX_VALUE;
        TreeSet<String> closest = new TreeSet<>();
        for (String candidate : candidates) {
            int distance = distance(name, candidate);
            if (distance == 0 || distance > allowed || distance > best) {
                continue;
            }
            if (distance < best) {
                closest.clear();
                best = distance;
            }
            closest.add(candidate);
        }
        return List.copyOf(closest);
    }

    /** {@code " (did you mean 'a' or 'b'?)"} for the {@link #closest} candidates, or "". */
    public static String hint(String name, Collection<String> candidates) {
        List<String> closest = closest(name, candidates);
        if (closest.isEmpty()) {
            return "";
        }
        List<String> quoted = closest.stream().map(c -> "'" + c + "'").toList();
        int last = quoted.size() - 1;
        String first = String.join(", ", quoted.subList(0, last));
        return " (did you mean " + (last == 0 ? "" : first + " or ") + quoted.get(last) + "?)";
    }

    /**
     * Single-character insertions, deletions, substitutions and swaps of neighbours from a to b
     * (optimal string alignment distance): {@code ordres} is one edit from {@code orders}.
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int edits =
                        Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j], d[i][j - 1]) + 1);
                if (i > 1
                        && j > 1
                        && a.charAt(i - 1) == b.charAt(j - 2)
                        && a.charAt(i - 2) == b.charAt(j - 1)) {
                    edits = Math.min(edits, d[i - 2][j - 2] + 1);
                }
                d[i][j] = edits;
            }
        }
        return d[a.length()][b.length()];
    }
}
