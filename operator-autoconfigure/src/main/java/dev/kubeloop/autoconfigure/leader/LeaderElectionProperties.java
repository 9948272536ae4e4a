package dev.kubeloop.autoconfigure.leader;

import dev.kubeloop.autoconfigure.LeaseProperties;
import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.leader.OnLost;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code kubeloop.leader-election.*}: every replica syncs its caches, only the holder of the Lease
 * reconciles. Timings as in client-go ({@link LeaseProperties}); see docs/operations.md. Bound when
 * leader election is on. A mutable JavaBean bound once at startup; read it, do not change it.
 */
@ConfigurationProperties("kubeloop.leader-election")
public class LeaderElectionProperties extends LeaseProperties {

    /**
     * Whether replicas elect a leader through a Lease. Unset: on when Spring Boot detects
     * Kubernetes as the cloud platform (or spring.main.cloud-platform=kubernetes), off otherwise.
     */
    private Boolean enabled;

    /**
     * Name of the Lease; the same for all replicas of one operator. Defaults to
     * "<spring.application.name>-leader".
     */
    private String leaseName;

    /**
     * Namespace of the Lease. Defaults to the pod's namespace (service account mount, then the
     * POD_NAMESPACE environment variable), else the client's namespace, else "default".
     */
    private String leaseNamespace;

    /**
     * Whether a graceful shutdown releases the Lease once reconciles in flight have finished,
     * so that a standby takes over at once instead of after lease-duration.
     */
    private boolean releaseOnShutdown = LeaderElectionSettings.RELEASE_ON_SHUTDOWN.defaultValue();

    /**
     * What a leader does when it loses the Lease: stop its workers, then exit with a non-zero
     * code so that Kubernetes restarts it ("exit"), or stand by again ("standby").
     */
    private OnLost onLost = LeaderElectionSettings.ON_LOST.defaultValue();

    public LeaderElectionProperties() {
        super(LeaderElectionSettings.LEASE_DURATION.defaultValue(), LeaderElectionSettings.RENEW_DEADLINE.defaultValue(),
                LeaderElectionSettings.RETRY_PERIOD.defaultValue());
    }

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public String getLeaseName() {
        return leaseName;
    }

    public void setLeaseName(String leaseName) {
        this.leaseName = leaseName;
    }

    public String getLeaseNamespace() {
        return leaseNamespace;
    }

    public void setLeaseNamespace(String leaseNamespace) {
        this.leaseNamespace = leaseNamespace;
    }

    public boolean isReleaseOnShutdown() {
        return releaseOnShutdown;
    }

    public void setReleaseOnShutdown(boolean releaseOnShutdown) {
        this.releaseOnShutdown = releaseOnShutdown;
    }

    public OnLost getOnLost() {
        return onLost;
    }

    public void setOnLost(OnLost onLost) {
        this.onLost = onLost;
    }
}
