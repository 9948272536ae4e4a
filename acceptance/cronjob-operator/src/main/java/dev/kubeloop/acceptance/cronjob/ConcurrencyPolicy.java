package dev.kubeloop.acceptance.cronjob;

/**
 * How a run is treated while an earlier one is still active; the original's
 * {@code +kubebuilder:validation:Enum=Allow;Forbid;Replace} becomes the schema's enum.
 */
public enum ConcurrencyPolicy {
    /** Runs may overlap (the default). */
    Allow,
    /** A run is skipped while an earlier one is active. */
    Forbid,
    /** The active runs are deleted and the new one started. */
    Replace
}
