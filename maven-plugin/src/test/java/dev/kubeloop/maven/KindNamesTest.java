package dev.kubeloop.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A kind added later obeys the rules the archetype applied to the first: the same patterns. */
class KindNamesTest {

    private static final Path ARCHETYPE_METADATA =
            Path.of("../archetype/src/main/resources/META-INF/maven/archetype-metadata.xml");

    @Test
    void thePatternsAreTheArchetypes() throws IOException {
        String metadata = Files.readString(ARCHETYPE_METADATA);

        assertThat(KindNames.KIND.pattern()).isEqualTo(regexOf(metadata, "kind"));
        assertThat(KindNames.GROUP.pattern()).isEqualTo(regexOf(metadata, "crdGroup"));
        assertThat(KindNames.PLURAL.pattern()).isEqualTo(regexOf(metadata, "plural"));
        assertThat(KindNames.VERSION.pattern()).isEqualTo(regexOf(metadata, "crdVersion"));
    }

    private static String regexOf(String metadata, String property) {
        Matcher matcher = Pattern.compile("<requiredProperty key=\"" + property
                + "\">.*?<validationRegex>(.*?)</validationRegex>", Pattern.DOTALL).matcher(metadata);
        assertThat(matcher.find()).as(property).isTrue();
        return matcher.group(1);
    }
}
