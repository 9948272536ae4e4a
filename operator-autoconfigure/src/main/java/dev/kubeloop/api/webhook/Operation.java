package dev.kubeloop.api.webhook;

/** The operation an AdmissionReview asks about, as the API server names it. */
public enum Operation {
    CREATE,
    UPDATE,
    DELETE,
    CONNECT
}
