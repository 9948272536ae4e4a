package dev.kubeloop.testing;

import dev.kubeloop.mock.ServerSideApplyDispatcher;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceAware;
import io.fabric8.kubernetes.client.server.mock.Resetable;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * The mock's dispatcher behind {@link ApiFaults}: a request a fault fires on gets the fault's
 * error, every other request is served as usual. Thread-safe (the faults are).
 */
final class FaultInjectingDispatcher extends Dispatcher implements Resetable, CustomResourceAware {

    private final ApiFaults faults;
    private final ServerSideApplyDispatcher delegate;

    FaultInjectingDispatcher(ApiFaults faults, ServerSideApplyDispatcher delegate) {
        this.faults = faults;
        this.delegate = delegate;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        MockResponse fault = faults.answer(request);
        return fault != null ? fault : delegate.dispatch(request);
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }

    @Override
    public void releaseResources() {
        delegate.releaseResources();
    }

    @Override
    public void reset() {
        delegate.reset();
    }

    @Override
    public void expectCustomResource(CustomResourceDefinitionContext rdc) {
        delegate.expectCustomResource(rdc);
    }
}
