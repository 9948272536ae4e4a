package dev.kubeloop.api.watch;

import java.util.Collection;

/**
 * The values one object is found under in a named index (a client-go indexer), e.g. the names of
 * the Secrets a Website refers to. Called on the informer's thread whenever the object enters or
 * changes in the cache: cheap, thread-safe, never null (empty for none).
 *
 * @param <R> the indexed type
 */
@FunctionalInterface
public interface IndexFunction<R> {

    Collection<String> values(R object);
}
