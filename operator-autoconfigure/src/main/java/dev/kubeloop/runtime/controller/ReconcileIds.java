package dev.kubeloop.runtime.controller;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The {@code reconcileID} put into the MDC of every reconcile, a random (version 4) UUID as
 * controller-runtime uses. It only has to tell reconciles apart in logs, not be unpredictable, so
 * it comes from {@link ThreadLocalRandom} rather than {@link UUID#randomUUID()}'s shared
 * {@code SecureRandom}, which every worker would otherwise contend on. Stateless.
 */
final class ReconcileIds {

    private ReconcileIds() {
    }

    static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long low = (random.nextLong() & ~(0xC000L << 48)) | (0x8000L << 48); // IETF variant
        return new UUID(high, low).toString();
    }
}
