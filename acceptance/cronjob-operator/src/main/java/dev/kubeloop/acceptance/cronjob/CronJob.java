package dev.kubeloop.acceptance.cronjob;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code batch.tutorial.kubebuilder.io/v1 CronJob}, namespaced, with a status subresource, as in
 * kubebuilder's CronJob tutorial (docs/book/src/cronjob-tutorial/testdata/project/api/v1/cronjob_types.go).
 * Not the built-in {@code batch/v1 CronJob}: another group, so both can be served side by side. Its CRD
 * is generated at build time into {@code META-INF/fabric8/cronjobs.batch.tutorial.kubebuilder.io-v1.yml}.
 */
@Group(CronJob.GROUP)
@Version(CronJob.VERSION)
@Plural(CronJob.PLURAL)
public class CronJob extends CustomResource<CronJobSpec, CronJobStatus> implements Namespaced {

    public static final String GROUP = "batch.tutorial.kubebuilder.io";
    public static final String VERSION = "v1";
    public static final String PLURAL = "cronjobs";
    /** The CRD the build generates, on the class path. */
    public static final String CRD = "META-INF/fabric8/" + PLURAL + "." + GROUP + "-v1.yml";
    private static final long serialVersionUID = 1L;

    @Override
    protected CronJobSpec initSpec() {
        return new CronJobSpec();
    }
}
