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

import org.apache.iggy.message.HeaderKey;
import org.apache.iggy.message.HeaderKind;
import org.apache.iggy.message.HeaderValue;

import java.util.Map;

/**
 * Converts the connector's {@link IggyHeaders} and {@link IggyHeaderValue} to and from the SDK's
 * header types, which stay out of public signatures. Headers convert without a copy.
 */
@Internal
public final class SdkHeaders {

    private static final HeaderKind[] TO_SDK = new HeaderKind[IggyHeaderValue.Kind.values().length];
    private static final IggyHeaderValue.Kind[] FROM_SDK =
            new IggyHeaderValue.Kind[HeaderKind.values().length];

    static {
        for (IggyHeaderValue.Kind kind : IggyHeaderValue.Kind.values()) {
            for (HeaderKind sdk : HeaderKind.values()) {
                if (sdk.name().equalsIgnoreCase(kind.name())) {
                    TO_SDK[kind.ordinal()] = sdk;
                    FROM_SDK[sdk.ordinal()] = kind;
                }
            }
        }
    }

    private SdkHeaders() {}

    /** The headers of an SDK message ({@code null} is none), wrapped: do not change the map. */
    public static IggyHeaders fromSdk(
            @javax.annotation.Nullable Map<HeaderKey, HeaderValue> headers) {
        return headers == null ? IggyHeaders.empty() : IggyHeaders.wrap(headers);
    }

    /** The headers as the SDK takes them: an unmodifiable map. */
    public static Map<HeaderKey, HeaderValue> toSdk(IggyHeaders headers) {
        return headers.sdkHeaders();
    }

    static IggyHeaderValue valueFromSdk(HeaderValue value) {
        return IggyHeaderValue.wrap(FROM_SDK[value.kind().ordinal()], value.value());
    }

    static HeaderValue valueToSdk(IggyHeaderValue value) {
        return new HeaderValue(TO_SDK[value.kind().ordinal()], value.encoded());
    }
}
