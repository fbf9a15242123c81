package io.stockguard.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.platform.Actor;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.core.convert.support.GenericConversionService;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextImpl;

/** What a console session stores, written and read back as Spring Session does through the codec. */
class SessionAttributeCodecTest {

    private static final ClassLoader LOADER = SessionAttributeCodecTest.class.getClassLoader();

    @Test
    void aLoggedInPersonsSecurityContextReadsBackWithTheirNameAndRole() {
        // As PasswordLogin makes it: the person's actor as principal, the role's authorities.
        Authentication login = UsernamePasswordAuthenticationToken.authenticated(
                new Actor(Actor.Kind.PERSON, "olga"), null, PersonRole.OPERATOR.authorities());
        GenericConversionService codec = SessionAttributeCodec.conversions(LOADER);

        Object read = read(codec, write(codec, new SecurityContextImpl(login)));

        assertThat(read).isInstanceOf(SecurityContext.class);
        Authentication back = ((SecurityContext) read).getAuthentication();
        assertThat(back.getPrincipal()).isEqualTo(new Actor(Actor.Kind.PERSON, "olga"));
        assertThat(Set.copyOf(back.getAuthorities())).isEqualTo(Set.copyOf(PersonRole.OPERATOR.authorities()));
        assertThat(back.isAuthenticated()).isTrue();
    }

    @Test
    void anAttributeWhoseClassIsGoneReadsAsAbsent() {
        GenericConversionService codec = SessionAttributeCodec.conversions(LOADER);
        byte[] stored = write(codec, new Actor(Actor.Kind.PERSON, "olga"));
        // A later version without the class (or with an incompatible one) reads through this loader.
        ClassLoader withoutActor = new ClassLoader(LOADER) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(Actor.class.getName())) {
                    throw new ClassNotFoundException(name);
                }
                return super.loadClass(name, resolve);
            }
        };

        assertThat(read(SessionAttributeCodec.conversions(withoutActor), stored)).isNull();
        assertThat(read(codec, new byte[] {1, 2, 3})).as("bytes that are no serialized object").isNull();
        assertThat(read(codec, stored)).as("the same bytes, where the class is").isNotNull();
    }

    private static byte[] write(GenericConversionService codec, Object attribute) {
        return (byte[]) codec.convert(attribute, TypeDescriptor.valueOf(Object.class),
                TypeDescriptor.valueOf(byte[].class));
    }

    private static Object read(GenericConversionService codec, byte[] stored) {
        return codec.convert(stored, TypeDescriptor.valueOf(byte[].class), TypeDescriptor.valueOf(Object.class));
    }
}
