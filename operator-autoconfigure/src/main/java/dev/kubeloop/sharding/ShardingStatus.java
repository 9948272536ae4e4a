package dev.kubeloop.sharding;

import dev.kubeloop.runtime.manager.ShardingState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What health, metrics and {@code /actuator/kubeloop} see of a sharding replica: one immutable
 * {@link ShardingState} built from the protocol's state at one instant. Stateless; called on the
 * sharding thread, which owns everything it reads.
 */
final class ShardingStatus {

    private ShardingStatus() {
    }

    static ShardingState of(ShardingSettings settings, ShardRing ring, RingView.Snapshot ringNow,
            Map<String, Integer> objects, long labelsWritten) {
        List<ShardingState.Member> members = new ArrayList<>();
        for (MemberLease lease : ringNow.leases()) {
            members.add(new ShardingState.Member(lease.hasHolder() ? lease.identity() : "(left) " + lease.name(),
                    ringNow.members().containsKey(lease.identity()), lease.held(), lease.renewTime()));
        }
        return new ShardingState(settings.ring(), settings.namespace(), settings.identity(), settings.buckets(),
                ring.inRing(), ring.inRingSince(), members,
                ring.inRing() ? ring.inPhase(ShardRing.Phase.ACTIVE) : Collections.emptySortedSet(), ring.target(),
                ring.handoffs(), ring.rebalances(), ring.handoffsIn(), ring.handoffsOut(), objects, labelsWritten,
                "labels");
    }
}
