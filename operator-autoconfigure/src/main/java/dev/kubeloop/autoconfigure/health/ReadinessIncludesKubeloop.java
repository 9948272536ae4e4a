package dev.kubeloop.autoconfigure.health;

import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;
import org.springframework.core.Ordered;

/**
 * Makes a Kubeloop health contributor a member of the {@code readiness} probe group: {@code kubeloop},
 * so that a replica reports OUT_OF_SERVICE (HTTP 503) on {@code /actuator/health/readiness} until its
 * caches have synced, and DOWN when its runtime breaks; {@code webhook}, so that a replica whose
 * webhook server is not serving receives no admission requests.
 *
 * <p>It decorates the group Spring Boot built (by default {@code readinessState} only) rather than
 * setting {@code management.endpoint.health.group.readiness.include}, so it cannot fail startup's
 * membership validation when the contributor is switched off, and it respects the user: when
 * readiness membership is configured explicitly ({@code include} or {@code exclude}), that
 * configuration is left exactly as written (add {@code kubeloop} to it to keep the check).
 *
 * <p>Ordered last, after Spring Boot's availability probes post-processor has created the probe
 * groups. Stateless apart from the properties it reads once.
 */
public final class ReadinessIncludesKubeloop implements HealthEndpointGroupsPostProcessor, Ordered {

    static final String GROUP = "readiness";
    static final String MEMBER = "kubeloop";

    private final ObjectProvider<HealthEndpointProperties> properties;
    private final String member;

    ReadinessIncludesKubeloop(ObjectProvider<HealthEndpointProperties> properties) {
        this(properties, MEMBER);
    }

    /** For another contributor, e.g. the webhook auto-configuration's {@code webhook}. */
    public ReadinessIncludesKubeloop(ObjectProvider<HealthEndpointProperties> properties, String member) {
        this.properties = properties;
        this.member = member;
    }

    @Override
    public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
        HealthEndpointGroup readiness = groups.get(GROUP);
        if (readiness == null || readiness.isMember(member) || configuredExplicitly()) {
            return groups;
        }
        return new Groups(groups, new WithMember(readiness, member));
    }

    private boolean configuredExplicitly() {
        HealthEndpointProperties configured = properties.getIfAvailable();
        if (configured == null) {
            return false;
        }
        HealthEndpointProperties.Group group = configured.getGroup().get(GROUP);
        return group != null && (group.getInclude() != null || group.getExclude() != null);
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /** The groups, with the readiness group replaced; keeps the probes' additional paths (/readyz). */
    private record Groups(HealthEndpointGroups delegate, HealthEndpointGroup readiness)
            implements HealthEndpointGroups, AdditionalPathsMapper {

        @Override
        public HealthEndpointGroup getPrimary() {
            return delegate.getPrimary();
        }

        @Override
        public Set<String> getNames() {
            return delegate.getNames();
        }

        @Override
        public HealthEndpointGroup get(String name) {
            return GROUP.equals(name) ? readiness : delegate.get(name);
        }

        @Override
        public List<String> getAdditionalPaths(EndpointId endpointId, WebServerNamespace webServerNamespace) {
            return delegate instanceof AdditionalPathsMapper mapper
                    ? mapper.getAdditionalPaths(endpointId, webServerNamespace) : null;
        }
    }

    /** A group with one more member. */
    private record WithMember(HealthEndpointGroup delegate, String member) implements HealthEndpointGroup {

        @Override
        public boolean isMember(String name) {
            return member.equals(name) || delegate.isMember(name);
        }

        @Override
        public boolean showComponents(SecurityContext securityContext) {
            return delegate.showComponents(securityContext);
        }

        @Override
        public boolean showDetails(SecurityContext securityContext) {
            return delegate.showDetails(securityContext);
        }

        @Override
        public StatusAggregator getStatusAggregator() {
            return delegate.getStatusAggregator();
        }

        @Override
        public HttpCodeStatusMapper getHttpCodeStatusMapper() {
            return delegate.getHttpCodeStatusMapper();
        }

        @Override
        public AdditionalHealthEndpointPath getAdditionalPath() {
            return delegate.getAdditionalPath();
        }
    }
}
