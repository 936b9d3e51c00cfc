package org.apache.flink.connector.iggy.testutils.server;

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

    @Override
    public String toString() {
        return isNumeric() ? Long.toString(numeric) : '"' + name + '"';
    }
}
