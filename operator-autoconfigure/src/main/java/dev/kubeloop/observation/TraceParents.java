package dev.kubeloop.observation;

import io.micrometer.observation.Observation;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.handler.TracingObservationHandler;

/**
 * The W3C traceparent of an observation's span, read from Micrometer Tracing's handler context.
 * Micrometer Tracing is optional: without it there is no trace to carry, and this class is never
 * loaded (see {@link #PRESENT}).
 */
final class TraceParents {

    /** Whether Micrometer Tracing is on the class path. */
    static final boolean PRESENT = present();

    private TraceParents() {
    }

    private static boolean present() {
        try {
            Class.forName("io.micrometer.tracing.handler.TracingObservationHandler", false,
                    TraceParents.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** {@code 00-<trace id>-<span id>-<flags>}, or null when the observation has no span. */
    static String of(Observation observation) {
        if (!PRESENT) {
            return null;
        }
        return Reader.read(observation);
    }

    /** Touches Micrometer Tracing's types only when they are present. */
    private static final class Reader {
        static String read(Observation observation) {
            TracingObservationHandler.TracingContext tracing = observation.getContextView()
                    .get(TracingObservationHandler.TracingContext.class);
            if (tracing == null || tracing.getSpan() == null) {
                return null;
            }
            TraceContext context = tracing.getSpan().context();
            String traceId = context.traceId();
            if (traceId == null || traceId.isEmpty() || traceId.chars().allMatch(c -> c == '0')) {
                return null; // a no-op span
            }
            // 64-bit trace ids (Brave's option) are left-padded, as W3C asks
            String padded = "0".repeat(Math.max(0, 32 - traceId.length())) + traceId;
            return "00-" + padded + "-" + context.spanId() + "-" + (Boolean.TRUE.equals(context.sampled()) ? "01" : "00");
        }
    }
}
