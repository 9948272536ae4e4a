package dev.kubeloop.runtime;

import java.util.Objects;

/**
 * Kubeloop cannot start because of something the operator's author or its deployment must fix: an
 * invalid reconciler setting, a resource type the API server does not serve (a missing CRD), or
 * caches that did not sync in time. Carries a description of the problem and the action to take,
 * so that the Spring Boot failure analyzer (or any other caller) can print both.
 *
 * <p>{@link #setting()} names the reconciler setting at fault (in properties' kebab-case, e.g.
 * {@code label-selector}) when the problem is one setting of one reconciler, so callers that know
 * where the setting came from can point at it. Immutable.
 */
public class KubeloopConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String description;
    private final String action;
    private final String controller;
    private final String setting;

    public KubeloopConfigurationException(String description, String action) {
        this(description, action, null, null, null);
    }

    public KubeloopConfigurationException(String description, String action, Throwable cause) {
        this(description, action, null, null, cause);
    }

    /**
     * A problem with one setting of one reconciler.
     *
     * @param controller the reconciler's name
     * @param setting the setting, in kebab-case ({@code workers}, {@code label-selector}, ...)
     */
    public KubeloopConfigurationException(String description, String action, String controller, String setting,
            Throwable cause) {
        super(Objects.requireNonNull(description, "description"), cause);
        this.description = description;
        this.action = Objects.requireNonNull(action, "action");
        this.controller = controller;
        this.setting = setting;
    }

    /** What is wrong, in one or two sentences. */
    public String description() {
        return description;
    }

    /** What to do about it. */
    public String action() {
        return action;
    }

    /** The reconciler at fault, or null when the problem is not about one reconciler. */
    public String controller() {
        return controller;
    }

    /** The setting at fault (kebab-case), or null when the problem is not one setting. */
    public String setting() {
        return setting;
    }
}
