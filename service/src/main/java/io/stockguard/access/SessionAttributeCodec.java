package io.stockguard.access;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.convert.support.GenericConversionService;
import org.springframework.core.serializer.support.DeserializingConverter;
import org.springframework.core.serializer.support.SerializationFailedException;
import org.springframework.core.serializer.support.SerializingConverter;

/**
 * How a console session's attributes are stored in the database: Java serialization, as Spring
 * Session does by default, with one difference. An attribute that no longer reads (written by
 * another version of the service whose classes changed since, during a rolling upgrade) reads as
 * absent: the person is asked to log in again, which overwrites it, instead of every page failing
 * until the session times out.
 */
final class SessionAttributeCodec {

    private static final Logger log = LoggerFactory.getLogger(SessionAttributeCodec.class);

    private SessionAttributeCodec() {
    }

    /** The conversions Spring Session stores and reads attributes with, resolving classes in {@code classLoader}. */
    static GenericConversionService conversions(ClassLoader classLoader) {
        GenericConversionService conversions = new GenericConversionService();
        conversions.addConverter(Object.class, byte[].class, new SerializingConverter());
        DeserializingConverter reader = new DeserializingConverter(classLoader);
        conversions.addConverter(byte[].class, Object.class, (byte[] stored) -> read(reader, stored));
        return conversions;
    }

    private static Object read(DeserializingConverter reader, byte[] stored) {
        try {
            return reader.convert(stored);
        } catch (SerializationFailedException e) {
            log.warn("a console session attribute cannot be read ({}); it is treated as absent, so its person "
                    + "logs in again", NestedExceptionUtils.getMostSpecificCause(e).toString());
            return null;
        }
    }
}
