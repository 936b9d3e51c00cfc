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

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Flink's check for unknown options, with the nearest known option named for each unknown one:
 * Flink lists every supported option (about 55 for a table), which hides that {@code
 * scan.startup.mod} is one letter short of {@code scan.startup.mode}.
 */
@Internal
public final class OptionSuggestions {

    private static final String UNSUPPORTED = "\n\nUnsupported options:\n\n";
    private static final String SUPPORTED = "\n\nSupported options:\n\n";

    private OptionSuggestions() {}

    /**
     * {@code helper.validate()}, whose failure for unknown options says, for each, the supported
     * option it is most likely a misspelling of.
     */
    public static void validate(FactoryUtil.FactoryHelper<?> helper) {
        try {
            helper.validate();
        } catch (ValidationException e) {
            throw withSuggestions(e);
        }
    }

    /**
     * {@code e} with "did you mean" added to each unknown option of Flink's message that is close
     * to a supported one; {@code e} itself for any other failure. The result has no cause: the SQL
     * client prints only the root cause, and the message keeps all of Flink's.
     */
    @VisibleForTesting
    static ValidationException withSuggestions(ValidationException e) {
        String message = e.getMessage();
        int unsupportedAt = message == null ? -1 : message.indexOf(UNSUPPORTED);
        int supportedAt = unsupportedAt < 0 ? -1 : message.indexOf(SUPPORTED, unsupportedAt);
        if (supportedAt < 0) {
            return e;
        }
        List<String> supported = new ArrayList<>();
        for (String line : message.substring(supportedAt + SUPPORTED.length()).split("\n")) {
            // Flink marks deprecated keys: "old.key (deprecated)".
            String key = line.strip().split(" ", 2)[0];
            if (!key.isEmpty()) {
                supported.add(key);
            }
        }
        StringBuilder unsupported = new StringBuilder();
        boolean suggested = false;
        for (String key :
                message.substring(unsupportedAt + UNSUPPORTED.length(), supportedAt).split("\n")) {
            if (unsupported.length() > 0) {
                unsupported.append('\n');
            }
            unsupported.append(key);
            Optional<String> nearest = nearest(key.strip(), supported);
            if (nearest.isPresent()) {
                unsupported.append(" (did you mean '").append(nearest.get()).append("'?)");
                suggested = true;
            }
        }
        if (!suggested) {
            return e;
        }
        ValidationException withSuggestions =
                new ValidationException(
                        message.substring(0, unsupportedAt + UNSUPPORTED.length())
                                + unsupported
                                + message.substring(supportedAt));
        withSuggestions.setStackTrace(e.getStackTrace());
        return withSuggestions;
    }

    /**
     * The candidate closest to {@code key} in edits (Levenshtein distance), if close enough to be a
     * likely misspelling: at most one edit in four characters, at least one.
     */
    @VisibleForTesting
    static Optional<String> nearest(String key, List<String> candidates) {
        int allowed = Math.max(1, key.length() / 4);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = distance(key, candidate);
            if (distance <= allowed
                    && (distance < bestDistance
                            || (distance == bestDistance && candidate.compareTo(best) < 0))) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The number of single-character insertions, deletions and substitutions from a to b. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
