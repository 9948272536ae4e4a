package dev.kubeloop.autoconfigure.sharding;

import dev.kubeloop.autoconfigure.OnBooleanPropertyCondition;
import dev.kubeloop.sharding.ShardingSettings;

/**
 * Sharding is on when {@code kubeloop.sharding.enabled} is true; it is off by default. Leader
 * election's condition asks it too ({@link #isOn}): sharding replaces leader election.
 */
public final class OnShardingCondition extends OnBooleanPropertyCondition {

    public OnShardingCondition() {
        super(ShardingSettings.ENABLED.property(), false, "to keep it off");
    }
}
