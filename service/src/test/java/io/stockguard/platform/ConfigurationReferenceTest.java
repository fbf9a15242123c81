package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * {@code docs/configuration.md} is generated from the configuration metadata (see
 * {@link ConfigurationReference}). This test fails when the committed file is not what the metadata
 * renders, and when a {@code stockguard.*} property has no description. Run it with
 * {@code -Dstockguard.docs.write=true} to rewrite the file.
 */
class ConfigurationReferenceTest {

    /** Surefire runs in the module directory (service/); the docs are beside it. */
    static final Path DOCUMENT = Path.of("..", "docs", "configuration.md");
    static final Path APPLICATION_YML = Path.of("src", "main", "resources", "application.yml");
    static final boolean WRITE = Boolean.getBoolean("stockguard.docs.write");

    static ConfigurationReference reference;

    @BeforeAll
    static void load() {
        reference = ConfigurationReference.load(ConfigurationReferenceTest.class.getClassLoader(), APPLICATION_YML);
    }

    @Test
    void theCommittedDocumentIsWhatTheMetadataRenders() throws IOException {
        String rendered = reference.render();
        if (WRITE) {
            Files.writeString(DOCUMENT, rendered, StandardCharsets.UTF_8);
            System.out.println("wrote " + DOCUMENT.toAbsolutePath().normalize() + " ("
                    + reference.propertyNames().size() + " stockguard.* properties from the metadata)");
        }
        if (!reference.undetermined().isEmpty()) {
            System.out.println("defaults not determined (the cell is left blank or carries a note): "
                    + reference.undetermined());
        }
        if (!Files.isRegularFile(DOCUMENT)) {
            fail(DOCUMENT.toAbsolutePath().normalize() + " is missing; generate it with\n  "
                    + ConfigurationReference.REGENERATE);
        }
        String committed = Files.readString(DOCUMENT, StandardCharsets.UTF_8);
        if (!committed.equals(rendered)) {
            fail("docs/configuration.md is out of date with the @ConfigurationProperties classes ("
                    + firstDifference(committed, rendered) + "). It is generated: do not edit it by hand; "
                    + "regenerate it with\n  " + ConfigurationReference.REGENERATE);
        }
    }

    @Test
    void everyStockGuardPropertyIsDescribed() {
        List<String> undescribed = reference.undescribed();
        if (!undescribed.isEmpty()) {
            fail(undescribed.size() + " stockguard.* properties have no description; give each a javadoc @param "
                    + "on its record (or a javadoc comment on its field) in plain English:\n  "
                    + String.join("\n  ", undescribed));
        }
        List<String> elements = reference.elementsWithoutRows();
        if (!elements.isEmpty()) {
            fail("elements of lists of objects are not in the metadata and have no hand-written row in "
                    + "ConfigurationReference.ELEMENT_ROWS:\n  " + String.join("\n  ", elements));
        }
    }

    @Test
    void everyEnvironmentVariableShownSetsItsProperty() {
        List<String> wrong = new ArrayList<>();
        for (ConfigurationReference.Section section : reference.sections()) {
            for (ConfigurationReference.Row row : section.rows()) {
                if (row.envVar().isEmpty()) {
                    continue;
                }
                var environment = new SystemEnvironmentPropertySource(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(row.envVar(), "x"));
                String property = row.property().replace("[n]", "[0]");
                if (!new Binder(ConfigurationPropertySources.from(environment)).bind(property, String.class)
                        .isBound()) {
                    wrong.add(row.envVar() + " does not set " + property);
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void rendersJavadocAsMarkdown() {
        assertThat(ConfigurationReference.markdown("""
                lag below which the throttle is lifted (below {@code degradeAbove}); {@code {bcrypt}$2a$…}
                    or {@link ChannelType#defaultLevels}, a|b""", Set.of("degrade-above")))
                .isEqualTo("lag below which the throttle is lifted (below `degrade-above`); `{bcrypt}$2a$…` "
                        + "or `defaultLevels`, a\\|b");
        assertThat(ConfigurationReference.duration(Duration.ofMinutes(15))).isEqualTo("15m");
        assertThat(ConfigurationReference.duration(Duration.ofMillis(500))).isEqualTo("500ms");
        assertThat(ConfigurationReference.duration(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(ConfigurationReference.envVar("stockguard.data-dir")).isEqualTo("STOCKGUARD_DATA_DIR");
    }

    private static String firstDifference(String committed, String rendered) {
        String[] a = committed.split("\n", -1);
        String[] b = rendered.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String left = i < a.length ? a[i] : "<end of file>";
            String right = i < b.length ? b[i] : "<end of file>";
            if (!left.equals(right)) {
                return "first difference at line " + (i + 1) + ": the file has\n    " + left
                        + "\n  the metadata renders\n    " + right + "\n";
            }
        }
        return "they differ";
    }
}
