package dev.kubeloop.autoconfigure.secrets;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gives each Widget a Secret {@code <name>-credentials} holding {@link #PASSWORD}, owned by the
 * Widget, and walks the paths where a careless runtime might print it: the first reconcile
 * creates the Secret and asks for a requeue, the second creates it again and fails with the API
 * server's 409 (an error kept in the last errors and logged), the third patches it and records an
 * Event. Thread-safe.
 */
@Reconciler(name = "widget", owns = Secret.class)
public class CredentialsReconciler implements ResourceReconciler<Widget> {

    static final String PASSWORD = "s3cr3t-Pa55w0rd-kubeloop-7f3a";

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    @Override
    public Result reconcile(Widget widget, ReconcileContext<Widget> context) {
        int call = calls.computeIfAbsent(context.key().toString(), key -> new AtomicInteger()).incrementAndGet();
        Secret secret = new SecretBuilder().withNewMetadata()
                .withNamespace(widget.getMetadata().getNamespace())
                .withName(widget.getMetadata().getName() + "-credentials")
                .addNewOwnerReference().withApiVersion(widget.getApiVersion()).withKind(widget.getKind())
                .withName(widget.getMetadata().getName()).withUid(widget.getMetadata().getUid())
                .withController(true).endOwnerReference()
                .endMetadata()
                .addToData("password", Base64.getEncoder().encodeToString(PASSWORD.getBytes(StandardCharsets.UTF_8)))
                .build();
        if (call <= 2) {
            context.client().resource(secret).create(); // the second time: 409 AlreadyExists
            return Result.requeue();
        }
        context.client().resource(secret).edit(current -> {
            current.setData(secret.getData());
            return current;
        });
        context.events().normal(widget, "CredentialsReady", "Secret " + secret.getMetadata().getName() + " is ready");
        return Result.done();
    }

    int calls(String key) {
        AtomicInteger count = calls.get(key);
        return count == null ? 0 : count.get();
    }
}
