package org.apache.flink.connector.iggy.testutils.server;

import java.util.Map;
import java.util.function.Function;

/**
 * An Iggy identifier as sent on the wire: either a numeric id or a name. Streams, topics, consumer
 * groups, consumers and users are all addressed this way.
 */
record EntityId(long numeric, String name) {

    static EntityId ofNumeric(long id) {
        return new EntityId(id, null);
    }

    static EntityId ofName(String name) {
        return new EntityId(-1, name);
    }

    boolean isNumeric() {
        return name == null;
    }

    /**
     * The entity this id names: by key in {@code byId} when numeric, else the first whose name
     * matches; null when there is none.
     */
    <T> T find(Map<Integer, T> byId, Function<T, String> nameOf) {
        if (isNumeric()) {
            return numeric > Integer.MAX_VALUE ? null : byId.get((int) numeric);
        }
        for (T entity : byId.values()) {
            if (nameOf.apply(entity).equals(name)) {
                return entity;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return isNumeric() ? Long.toString(numeric) : '"' + name + '"';
    }
}
