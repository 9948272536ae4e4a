package dev.kubeloop.testing;

import dev.kubeloop.mock.DecoratingDispatcher;
import dev.kubeloop.mock.ServerSideApplyDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * The mock's dispatcher behind {@link ApiFaults}: a request a fault fires on gets the fault's
 * error, every other request is served as usual. Thread-safe (the faults are).
 */
final class FaultInjectingDispatcher extends DecoratingDispatcher {

    private final ApiFaults faults;

    FaultInjectingDispatcher(ApiFaults faults, ServerSideApplyDispatcher delegate) {
        super(delegate);
        this.faults = faults;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        MockResponse fault = faults.answer(request);
        return fault != null ? fault : delegate.dispatch(request);
    }
}
