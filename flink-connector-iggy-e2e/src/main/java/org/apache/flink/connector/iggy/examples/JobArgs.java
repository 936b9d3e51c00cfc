package org.apache.flink.connector.iggy.examples;

import javax.annotation.Nullable;

import java.util.Arrays;

/** {@code --name value} program arguments of the cluster jobs. */
final class JobArgs {

    private JobArgs() {}

    static boolean flag(String[] args, String name) {
        return Arrays.asList(args).contains(name);
    }

    @Nullable
    static String option(String[] args, String name) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return null;
    }

    static String orDefault(String[] args, String name, String fallback) {
        String value = option(args, name);
        return value == null ? fallback : value;
    }

    static String required(String[] args, String name) {
        String value = option(args, name);
        if (value == null) {
            throw new IllegalArgumentException("Missing program argument " + name);
        }
        return value;
    }
}
