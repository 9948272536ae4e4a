package dev.kubeloop.acceptance.memcached;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code cache.example.com/v1alpha1 Memcached}, namespaced, as in operator-sdk's tutorial
 * (testdata/go/v4/memcached-operator/api/v1alpha1/memcached_types.go). Its CRD is generated at build
 * time into {@code META-INF/fabric8/memcacheds.cache.example.com-v1.yml}.
 */
@Group(Memcached.GROUP)
@Version(Memcached.VERSION)
@Plural(Memcached.PLURAL)
public class Memcached extends CustomResource<MemcachedSpec, MemcachedStatus> implements Namespaced {

    public static final String GROUP = "cache.example.com";
    public static final String VERSION = "v1alpha1";
    public static final String PLURAL = "memcacheds";
    /** The CRD the build generates, on the class path. */
    public static final String CRD = "META-INF/fabric8/" + PLURAL + "." + GROUP + "-v1.yml";
    private static final long serialVersionUID = 1L;

    @Override
    protected MemcachedSpec initSpec() {
        return new MemcachedSpec();
    }
}
