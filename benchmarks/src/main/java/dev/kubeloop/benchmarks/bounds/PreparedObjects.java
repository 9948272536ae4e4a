package dev.kubeloop.benchmarks.bounds;

import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The objects the resource-bounds server holds, each serialized to JSON once, so that a LIST of
 * 50,000 costs a copy of bytes instead of the CRUD mock's scan and re-serialization of every object
 * per request. They are the comparison harness's {@link BenchObjects}: labels, the
 * last-applied-configuration annotation and two managedFields entries, plus what the API server
 * adds (uid, resourceVersion, generation, creationTimestamp).
 *
 * <p>Immutable once built, except for the cached full list, built on first use under this object's
 * lock; thread-safe.
 */
final class PreparedObjects {

    static final String NAMESPACE = "bench";
    private static final byte[] COMMA = {','};

    private final List<byte[]> items;
    /** Newer than every object's resourceVersion, as a real list's is. */
    private final String listResourceVersion;
    private byte[] fullList;

    private PreparedObjects(List<byte[]> items) {
        this.items = items;
        this.listResourceVersion = String.valueOf(items.size() + 1);
    }

    static PreparedObjects create(int count, KubernetesSerialization serialization) {
        List<byte[]> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = BenchObjects.name(i);
            BenchResource resource = BenchObjects.create(NAMESPACE, name);
            resource.getMetadata().setUid(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString());
            resource.getMetadata().setResourceVersion(String.valueOf(i + 1));
            resource.getMetadata().setGeneration(1L);
            resource.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
            items.add(serialization.asJson(resource).getBytes(StandardCharsets.UTF_8));
        }
        return new PreparedObjects(items);
    }

    int size() {
        return items.size();
    }

    /** The average serialized size of one object, in bytes. */
    long averageJsonBytes() {
        return items.isEmpty() ? 0 : items.stream().mapToLong(item -> item.length).sum() / items.size();
    }

    /** The object called {@code name}, or null if there is none. */
    byte[] item(String name) {
        if (!name.startsWith("bench-")) {
            return null;
        }
        try {
            int index = Integer.parseInt(name.substring("bench-".length()));
            return index >= 0 && index < items.size() ? items.get(index) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * One page of the list: {@code limit} objects from {@code offset} (limit 0: all of them), with
     * a continue token (the next offset) when more follow, as the API server pages a list.
     */
    byte[] page(int offset, int limit) {
        if (offset == 0 && (limit <= 0 || limit >= items.size())) {
            return fullList();
        }
        int end = limit <= 0 ? items.size() : Math.min(items.size(), offset + limit);
        return list(offset, end);
    }

    private synchronized byte[] fullList() {
        if (fullList == null) {
            fullList = list(0, items.size());
        }
        return fullList;
    }

    private byte[] list(int from, int to) {
        long size = 256;
        for (int i = from; i < to; i++) {
            size += items.get(i).length + 1;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, size));
        String more = to < items.size() ? ",\"continue\":\"" + to + "\",\"remainingItemCount\":" + (items.size() - to)
                : "";
        out.writeBytes(("{\"apiVersion\":\"" + BenchResource.GROUP + "/" + BenchResource.VERSION + "\",\"kind\":\""
                + BenchResource.KIND + "List\",\"metadata\":{\"resourceVersion\":\"" + listResourceVersion + "\""
                + more + "},\"items\":[").getBytes(StandardCharsets.UTF_8));
        for (int i = from; i < to; i++) {
            if (i > from) {
                out.writeBytes(COMMA);
            }
            out.writeBytes(items.get(i));
        }
        out.writeBytes("]}".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** The discovery answer for the group-version: Kubeloop checks at startup that the type is served. */
    static String discovery(KubernetesSerialization serialization) {
        String groupVersion = BenchResource.GROUP + "/" + BenchResource.VERSION;
        return serialization.asJson(new APIResourceListBuilder()
                .withGroupVersion(groupVersion)
                .addToResources(new APIResourceBuilder().withName(BenchResource.PLURAL)
                        .withSingularName(BenchResource.KIND.toLowerCase(java.util.Locale.ROOT)).withNamespaced(true)
                        .withKind(BenchResource.KIND)
                        .withVerbs("get", "list", "watch", "create", "update", "patch", "delete").build())
                .addToResources(new APIResourceBuilder().withName(BenchResource.PLURAL + "/status").withNamespaced(true)
                        .withKind(BenchResource.KIND).withVerbs("get", "patch", "update").build())
                .build());
    }
}
