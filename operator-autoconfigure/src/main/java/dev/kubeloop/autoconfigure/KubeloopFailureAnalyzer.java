package dev.kubeloop.autoconfigure;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link KubeloopConfigurationException} anywhere in a startup failure's cause chain into
 * Spring Boot's "APPLICATION FAILED TO START" report: the description says what is wrong (naming
 * the bean, property or resource), the action says what to do.
 */
final class KubeloopFailureAnalyzer extends AbstractFailureAnalyzer<KubeloopConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, KubeloopConfigurationException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
