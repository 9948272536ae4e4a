package dev.kubeloop.testing;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * API errors the mock server answers chosen requests with, instead of serving them: e.g.
 * <pre>
 * Fault throttled = cluster.faults().on("PATCH", ".../widgets/[^/]+/status").fraction(0.1)
 *         .answer(ApiError.tooManyRequests(1));
 * ...
 * throttled.off();
 * </pre>
 * A fault answers matching requests (method, and a regular expression that must match the whole
 * path without the query) for the next {@code n} of them, a fraction of them, or all of them, until
 * switched off. Faults are asked in the order they were added; the first that fires answers, so a
 * later fault does not see a request an earlier one answered.
 *
 * <p>Note that fabric8's client retries 429 and 5xx answers itself (see {@code ApiErrorsTest}):
 * a fault on them is seen by the client's retries too. Thread-safe: the mock's event loop threads
 * ask, test threads add and switch off.
 */
public final class ApiFaults {

    /** Fractions are drawn from seeded generators, so a fault's sequence of decisions is reproducible. */
    private static final long SEED = 20261121L;

    private final List<Fault> faults = new CopyOnWriteArrayList<>();

    /** Starts a fault on requests with this HTTP method whose path matches {@code pathPattern}. */
    public Rule on(String method, String pathPattern) {
        return new Rule(method, Pattern.compile(pathPattern));
    }

    /** Switches every fault off. */
    public void off() {
        faults.forEach(Fault::off);
    }

    /** The answer of the first fault that fires for {@code request}; null to serve it normally. */
    MockResponse answer(RecordedRequest request) {
        if (faults.isEmpty()) {
            return null;
        }
        String method = request.getMethod();
        String pathAndQuery = request.getPath();
        int question = pathAndQuery.indexOf('?');
        String path = question < 0 ? pathAndQuery : pathAndQuery.substring(0, question);
        for (Fault fault : faults) {
            if (fault.fires(method, path)) {
                return fault.error.response(ApiRequest.parse(method, pathAndQuery));
            }
        }
        return null;
    }

    /** Which requests a fault answers: the next n, a fraction, or (by default) all of them. */
    public final class Rule {
        private final String method;
        private final Pattern path;
        private int limit = -1;
        private double fraction = 1;

        private Rule(String method, Pattern path) {
            this.method = method;
            this.path = path;
        }

        /** Answers only the next {@code n} requests it fires on, then switches itself off. */
        public Rule next(int n) {
            if (n <= 0) {
                throw new IllegalArgumentException("n must be positive, was " + n);
            }
            this.limit = n;
            return this;
        }

        /** Fires on each matching request with probability {@code fraction}. */
        public Rule fraction(double fraction) {
            if (fraction < 0 || fraction > 1) {
                throw new IllegalArgumentException("fraction must be within [0, 1], was " + fraction);
            }
            this.fraction = fraction;
            return this;
        }

        /** Starts answering with {@code error}; returns the fault, to count and switch off. */
        public Fault answer(ApiError error) {
            // a seed of its own, so that two faults on the same requests decide independently
            Fault fault = new Fault(method, path, limit, fraction, error, SEED + faults.size());
            faults.add(fault);
            return fault;
        }
    }

    /**
     * One active fault: what it answers and what it did. Its counters and hits are guarded by
     * the fault itself.
     */
    public static final class Fault {

        /** One request this fault saw while active: its path, when (System.nanoTime()), and whether it answered it. */
        public record Hit(String path, long nanos, boolean injected) {
        }

        private final String method;
        private final Pattern path;
        private final double fraction;
        private final ApiError error;
        private final Random random;
        private final List<Hit> hits = new ArrayList<>();
        private int remaining;
        private int injected;
        private boolean active = true;

        private Fault(String method, Pattern path, int limit, double fraction, ApiError error, long seed) {
            this.random = new Random(seed);
            this.method = method;
            this.path = path;
            this.remaining = limit;
            this.fraction = fraction;
            this.error = error;
        }

        synchronized boolean fires(String requestMethod, String requestPath) {
            if (!active || !method.equals(requestMethod) || !path.matcher(requestPath).matches()) {
                return false;
            }
            boolean fire = fraction >= 1 || random.nextDouble() < fraction;
            hits.add(new Hit(requestPath, System.nanoTime(), fire));
            if (fire) {
                injected++;
                if (remaining > 0 && --remaining == 0) {
                    active = false;
                }
            }
            return fire;
        }

        /** Stops answering; the counts stay. */
        public synchronized void off() {
            active = false;
        }

        public synchronized boolean active() {
            return active;
        }

        /** How many requests this fault answered with its error. */
        public synchronized int injected() {
            return injected;
        }

        /** Every matching request it saw while active, in order, answered or not. */
        public synchronized List<Hit> hits() {
            return List.copyOf(hits);
        }

        /** The HTTP status this fault answers with. */
        public int code() {
            return error.code();
        }
    }
}
