/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, gating a
 * {@link dev.kubeloop.runtime.ControllerManager}'s workers so that exactly one replica of an
 * operator acts: {@link dev.kubeloop.leader.LeaderElection} is a
 * {@link dev.kubeloop.runtime.WorkGate} built on fabric8's {@code LeaderElector} and
 * {@code LeaseLock}.
 *
 * <p>Every replica starts its informers and syncs its caches (a warm standby is ready at once);
 * only the Lease holder's workers take work. A standby watches the Lease and tries to acquire it
 * the moment it is released or expires. Losing the Lease stops the workers at once and then, by
 * default, exits the application ({@link dev.kubeloop.leader.OnLost#EXIT}).
 *
 * <p>Depends on {@code dev.kubeloop.runtime}, fabric8 and SLF4J only; no Spring.
 */
package dev.kubeloop.leader;
