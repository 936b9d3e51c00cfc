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
import org.apache.flink.connector.iggy.common.DidYouMean;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Flink's check for unknown options, with the nearest known option named for each unknown one:
 * Flink lists every supported option (dozens for a table), which hides that {@code
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
            String hint = DidYouMean.hint(key.strip(), supported);
            unsupported.append(hint);
            suggested |= !hint.isEmpty();
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
}
