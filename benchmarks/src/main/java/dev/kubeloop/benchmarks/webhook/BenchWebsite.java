package dev.kubeloop.benchmarks.webhook;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.ArrayList;
import java.util.List;

/**
 * The sample operator's Website as the benchmark sends it (the benchmarks do not depend on the
 * sample): spec with replicas, image, a 2 KiB page and TLS, status with three conditions, labels
 * and annotations as kubectl leaves them. About 4 KiB of JSON.
 */
@Group("sample.kubeloop.dev")
@Version("v1")
@Kind("Website")
public class BenchWebsite extends CustomResource<BenchWebsite.Spec, BenchWebsite.Status> implements Namespaced {

    private static final long serialVersionUID = 1L;

    static BenchWebsite realistic(String name) {
        BenchWebsite site = new BenchWebsite();
        site.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName(name).withGeneration(3L)
                .withUid("0b6cb2ae-3a6f-4b8e-9f0f-5a8d1f3c2e11").withResourceVersion("482113")
                .withCreationTimestamp("2026-11-20T10:15:30Z")
                .addToLabels("app.kubernetes.io/name", "website").addToLabels("team", "web")
                .addToAnnotations("kubectl.kubernetes.io/last-applied-configuration", "{\"apiVersion\":"
                        + "\"sample.kubeloop.dev/v1\",\"kind\":\"Website\",\"metadata\":{\"name\":\"" + name + "\"}}")
                .withFinalizers("website.kubeloop.dev/finalizer").build());
        Spec spec = new Spec();
        spec.setReplicas(3);
        spec.setImage("registry.example.com:5000/web/nginx:1.27-alpine");
        spec.setPage("<html><body>" + "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>".repeat(32)
                + "</body></html>");
        spec.setTls(new Tls());
        spec.getTls().setSecretName(name + "-tls");
        site.setSpec(spec);
        Status status = new Status();
        status.setObservedGeneration(3L);
        status.setReadyReplicas(3);
        status.setUrl("http://" + name + ".shop.svc");
        for (String type : List.of("Ready", "Progressing", "Degraded")) {
            status.getConditions().add(new ConditionBuilder().withType(type).withStatus("Ready".equals(type) ? "True"
                    : "False").withReason("AsExpected").withMessage("3/3 replicas ready").withObservedGeneration(3L)
                    .withLastTransitionTime("2026-11-20T10:16:02Z").build());
        }
        site.setStatus(status);
        return site;
    }

    /** The sample's spec. */
    public static class Spec {
        private Integer replicas;
        private String image;
        private String page;
        private Tls tls;

        public Integer getReplicas() {
            return replicas;
        }

        public void setReplicas(Integer replicas) {
            this.replicas = replicas;
        }

        public String getImage() {
            return image;
        }

        public void setImage(String image) {
            this.image = image;
        }

        public String getPage() {
            return page;
        }

        public void setPage(String page) {
            this.page = page;
        }

        public Tls getTls() {
            return tls;
        }

        public void setTls(Tls tls) {
            this.tls = tls;
        }
    }

    /** The sample's TLS. */
    public static class Tls {
        private String secretName;

        public String getSecretName() {
            return secretName;
        }

        public void setSecretName(String secretName) {
            this.secretName = secretName;
        }
    }

    /** The sample's status. */
    public static class Status {
        private Long observedGeneration;
        private Integer readyReplicas;
        private String url;
        private List<Condition> conditions = new ArrayList<>();

        public Long getObservedGeneration() {
            return observedGeneration;
        }

        public void setObservedGeneration(Long observedGeneration) {
            this.observedGeneration = observedGeneration;
        }

        public Integer getReadyReplicas() {
            return readyReplicas;
        }

        public void setReadyReplicas(Integer readyReplicas) {
            this.readyReplicas = readyReplicas;
        }

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }

        public List<Condition> getConditions() {
            return conditions;
        }

        public void setConditions(List<Condition> conditions) {
            this.conditions = conditions;
        }
    }
}
