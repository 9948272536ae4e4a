package dev.kubeloop.autoconfigure;

import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.sharding.ShardingSettings;
import dev.kubeloop.webhook.WebhookSettings;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every Kubeloop setting, from the one catalog of each package that has settings: each is a class
 * named {@code XxxSettings} holding one {@link Setting} constant per property and {@code all()}
 * listing them ({@link Settings}, {@link LeaderElectionSettings}, {@link ShardingSettings},
 * {@link WebhookSettings}). Only this class knows all four (the packages below it may not know
 * each other); the failure analyzers look settings up here, and the documentation, metadata and
 * chart tests check against it. Stateless.
 */
final class SettingsCatalog {

    private static final List<Setting<?>> ALL = Stream.of(Settings.all(), LeaderElectionSettings.all(),
            ShardingSettings.all(), WebhookSettings.all()).flatMap(List::stream).toList();

    private SettingsCatalog() {
    }

    static List<Setting<?>> all() {
        return ALL;
    }

    /** The setting of {@code property}; a reconciler's settings by their {@code kubeloop.reconcilers.*.} form. */
    static Optional<Setting<?>> setting(String property) {
        String pattern = property.replaceFirst("^kubeloop\\.reconcilers\\.[^.]+\\.", "kubeloop.reconcilers.*.");
        return ALL.stream().filter(setting -> setting.property().equals(pattern)).findFirst();
    }
}
