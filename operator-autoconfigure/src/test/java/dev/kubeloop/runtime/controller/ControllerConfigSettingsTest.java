package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.testing.Widget;
import org.junit.jupiter.api.Test;

/** The generic route of a per-reconciler setting: given, checked by the catalog, read back; else the default. */
class ControllerConfigSettingsTest {

    @Test
    void aGivenValueIsReadBackAndAnUnsetOneIsTheCatalogsDefault() {
        ControllerConfig<Widget> given = ControllerConfig.builder("widget", Widget.class)
                .setting(Settings.MAX_ATTEMPTS, 3).build();
        ControllerConfig<Widget> unset = ControllerConfig.builder("widget", Widget.class).build();

        assertThat(given.setting(Settings.MAX_ATTEMPTS)).isEqualTo(given.maxAttempts()).isEqualTo(3);
        assertThat(given.toBuilder().build().setting(Settings.MAX_ATTEMPTS)).as("kept by toBuilder").isEqualTo(3);
        assertThat(unset.setting(Settings.MAX_ATTEMPTS)).isEqualTo(Settings.MAX_ATTEMPTS.defaultValue());
    }

    @Test
    void aValueTheCatalogRefusesFailsTheBuildNamingTheSetting() {
        assertThatThrownBy(() -> ControllerConfig.builder("widget", Widget.class).setting(Settings.MAX_ATTEMPTS, -1)
                .build()).isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                    assertThat(e.setting()).isEqualTo("max-attempts");
                    assertThat(e.getMessage()).contains("max attempts must be " + Settings.MAX_ATTEMPTS.allowed()
                            + ", was -1");
                });
        assertThatThrownBy(() -> ControllerConfig.builder("widget", Widget.class).setting(Settings.MAX_ATTEMPTS, null)
                .build()).isInstanceOf(KubeloopConfigurationException.class).hasMessageContaining("was empty");
    }

    @Test
    void onlyPerReconcilerSettingsTakeThisRoute() {
        assertThatIllegalArgumentException().isThrownBy(() -> ControllerConfig.builder("widget", Widget.class)
                .setting(Settings.SHUTDOWN_TIMEOUT, null)).withMessageContaining("kubeloop.shutdown-timeout");
    }
}
