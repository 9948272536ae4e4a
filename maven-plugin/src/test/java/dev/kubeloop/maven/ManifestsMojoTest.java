package dev.kubeloop.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;

/** The goal's configuration: options as properties, and bad input named. */
class ManifestsMojoTest {

    private static ManifestsMojo withOptions(Map<String, String> options) throws Exception {
        ManifestsMojo mojo = new ManifestsMojo();
        Field field = ManifestsMojo.class.getDeclaredField("options");
        field.setAccessible(true);
        field.set(mojo, new LinkedHashMap<>(options));
        return mojo;
    }

    @Test
    void anOptionIsTheApplicationPropertiesItSets() throws Exception {
        assertThat(withOptions(Map.of("tlsSecrets", "sample.tls-secrets.watch=true, other.flag = on")).parsedOptions())
                .isEqualTo(Map.of("tlsSecrets", Map.of("sample.tls-secrets.watch", "true", "other.flag", "on")));
    }

    @Test
    void anOptionThatIsNotKeyValuePairsIsRefusedNamingIt() throws Exception {
        assertThatThrownBy(() -> withOptions(Map.of("tlsSecrets", "true")).parsedOptions())
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("option <tlsSecrets> must be key=value pairs separated by commas, not 'true'");
    }
}
