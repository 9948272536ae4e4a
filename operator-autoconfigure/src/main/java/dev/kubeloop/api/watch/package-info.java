/**
 * Watching related resources: {@link dev.kubeloop.api.watch.WatchConfigurer} (implemented by a
 * reconciler), the {@link dev.kubeloop.api.watch.Watches} it declares into,
 * {@link dev.kubeloop.api.watch.Watch} (one watch of a related type),
 * {@link dev.kubeloop.api.watch.Mapper}s from a watched object to primary keys (ready-made ones in
 * {@link dev.kubeloop.api.watch.Mappers}) and {@link dev.kubeloop.api.watch.IndexFunction}s; mappers
 * and reconciles read the caches through {@link dev.kubeloop.api.CacheReader}. Free of Spring and of
 * the runtime.
 *
 * <p>Null-marked (JSpecify): nothing here takes or returns null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.kubeloop.api.watch;

import org.jspecify.annotations.NullMarked;
