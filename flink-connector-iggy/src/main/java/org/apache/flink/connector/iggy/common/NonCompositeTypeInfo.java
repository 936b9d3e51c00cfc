package org.apache.flink.connector.iggy.common;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Type information of a type that Flink handles as one opaque field: no tuple or POJO fields to
 * address, not usable as a key.
 */
@Internal
public abstract class NonCompositeTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isBasicType() {
        return false;
    }

    @Override
    public final boolean isTupleType() {
        return false;
    }

    @Override
    public final int getArity() {
        return 1;
    }

    @Override
    public final int getTotalFields() {
        return 1;
    }

    @Override
    public final boolean isKeyType() {
        return false;
    }
}
