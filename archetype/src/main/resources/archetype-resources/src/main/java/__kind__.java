package ${package};

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
#if ($namespaced == 'true')
import io.fabric8.kubernetes.api.model.Namespaced;
#end
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The custom resource {@code ${crdGroup}/${crdVersion} ${kind}}#if ($namespaced == 'true'), namespaced#else, cluster-scoped#end. Its CRD
 * (schema from {@link ${kind}Spec} and {@link ${kind}Status}, status subresource, printer columns) is
 * generated from these classes at build time into {@code META-INF/fabric8/${plural}.${crdGroup}-v1.yml},
 * and copied into the Helm chart ({@code chart/files/}).
 */
@Group(${kind}.GROUP)
@Version(${kind}.VERSION)
@Plural(${kind}.PLURAL)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
#if ($namespaced == 'true')
public class ${kind} extends CustomResource<${kind}Spec, ${kind}Status> implements Namespaced {
#else
public class ${kind} extends CustomResource<${kind}Spec, ${kind}Status> {
#end

    public static final String GROUP = "${crdGroup}";
    public static final String VERSION = "${crdVersion}";
    public static final String PLURAL = "${plural}";
    /** The CRD the build generates, on the class path. */
    public static final String CRD = "META-INF/fabric8/" + PLURAL + "." + GROUP + "-v1.yml";
    private static final long serialVersionUID = 1L;

    @Override
    protected ${kind}Spec initSpec() {
        return new ${kind}Spec();
    }
}
