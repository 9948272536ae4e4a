package dev.kubeloop.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations Kubeloop makes, with their attribute names: a contract like the metric names
 * (docs/tracing.md lists them; renaming one breaks users' queries and dashboards). Low-cardinality
 * attributes also tag the timers a meter handler derives from the observations; high-cardinality
 * ones only go on spans.
 */
public enum KubeloopObservations implements ObservationDocumentation {

    /** One reconcile of one key, from the cache read to the requeue. */
    RECONCILE {
        @Override
        public String getName() {
            return "kubeloop.reconcile";
        }

        @Override
        public String getContextualName() {
            return "reconcile";
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {ReconcileKeys.CONTROLLER, ReconcileKeys.OUTCOME, ReconcileKeys.CAUSE};
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return new KeyName[] {ReconcileKeys.KEY, ReconcileKeys.GENERATION, ReconcileKeys.PRIORITY, ReconcileKeys.ATTEMPT,
                ReconcileKeys.QUEUE_WAIT, ReconcileKeys.CAUSE_OBJECT, ReconcileKeys.ERROR};
        }
    },

    /** A write the runtime makes for the reconcile: adding or removing the finalizer, writing the status. */
    STEP {
        @Override
        public String getName() {
            return "kubeloop.reconcile.step";
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {ReconcileKeys.CONTROLLER, StepKeys.STEP, ReconcileKeys.OUTCOME};
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return new KeyName[] {ReconcileKeys.KEY};
        }
    },

    /** One HTTP request a reconcile makes to the API server through its client. */
    API_REQUEST {
        @Override
        public String getName() {
            return "kubeloop.api.request";
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {ReconcileKeys.CONTROLLER, RequestKeys.METHOD, RequestKeys.RESOURCE, RequestKeys.STATUS};
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return new KeyName[] {RequestKeys.PATH};
        }
    },

    /** One admission or conversion request the webhook server answers. */
    WEBHOOK {
        @Override
        public String getName() {
            return "kubeloop.webhook";
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return new KeyName[] {WebhookKeys.WEBHOOK, WebhookKeys.CODE};
        }
    };

    /** The reconcile's attributes. */
    public enum ReconcileKeys implements KeyName {
        /** The reconciler's name. */
        CONTROLLER("kubeloop.controller"),
        /** How the reconcile ended, lower case: success, requeue, requeue_after, error, terminal_error, conflict, timeout, retries_exhausted, gone. */
        OUTCOME("kubeloop.outcome"),
        /** Why the key was queued: change, owned, watched, requeue, retry, trigger, initial-list, resync, unknown. */
        CAUSE("kubeloop.queue.cause"),
        /** {@code namespace/name} of the primary. */
        KEY("kubeloop.key"),
        /** The primary's metadata.generation when the reconcile started. */
        GENERATION("kubeloop.generation"),
        /** The priority the key was handed out at. */
        PRIORITY("kubeloop.priority"),
        /** 1 for a first attempt, then 2, 3, ... for retries. */
        ATTEMPT("kubeloop.attempt"),
        /** Milliseconds the key waited in the queue after it was due. */
        QUEUE_WAIT("kubeloop.queue.wait_ms"),
        /** The owned or watched object whose change queued the key: {@code Kind namespace/name event}. */
        CAUSE_OBJECT("kubeloop.queue.cause.object"),
        /** The error's class and message, when the reconcile failed. */
        ERROR("kubeloop.error");

        private final String name;

        ReconcileKeys(String name) {
            this.name = name;
        }

        @Override
        public String asString() {
            return name;
        }
    }

    /** The step's attribute. */
    public enum StepKeys implements KeyName {
        /** {@code finalizer} or {@code status}. */
        STEP("kubeloop.step");

        private final String name;

        StepKeys(String name) {
            this.name = name;
        }

        @Override
        public String asString() {
            return name;
        }
    }

    /** An API request's attributes (OpenTelemetry's HTTP names where there is one). */
    public enum RequestKeys implements KeyName {
        /** GET, POST, PATCH, ... */
        METHOD("http.request.method"),
        /** The resource's plural, with group and subresource: {@code configmaps}, {@code websites.example.com/status}. */
        RESOURCE("k8s.resource"),
        /** The response's status code, or {@code none} when no response came. */
        STATUS("http.response.status_code"),
        /** The request's path. */
        PATH("url.path");

        private final String name;

        RequestKeys(String name) {
            this.name = name;
        }

        @Override
        public String asString() {
            return name;
        }
    }

    /** A webhook request's attributes. */
    public enum WebhookKeys implements KeyName {
        /** The webhook's path. */
        WEBHOOK("kubeloop.webhook"),
        /** The HTTP status code of the answer. */
        CODE("http.response.status_code");

        private final String name;

        WebhookKeys(String name) {
            this.name = name;
        }

        @Override
        public String asString() {
            return name;
        }
    }
}
