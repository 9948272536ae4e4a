package dev.kubeloop.benchmarks.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The objects of one collection, each serialized to JSON once, so that a LIST of 100,000 costs a
 * copy of bytes: the CRUD mock scans and re-serializes every object per request, which at that
 * size is slower than the benchmarks themselves. Any type; the list's kind is the item kind plus
 * {@code List}, and its resourceVersion is newer than every item's, as a real list's is.
 *
 * <p>Immutable once built, except for the cached full list, built on first use under this
 * object's lock; thread-safe.
 */
final class PreparedList {

    private static final byte[] COMMA = {','};

    private final String apiVersion;
    private final String listKind;
    private final List<byte[]> items;
    private final String listResourceVersion;
    private byte[] fullList;

    private PreparedList(String apiVersion, String listKind, List<byte[]> items, long listResourceVersion) {
        this.apiVersion = apiVersion;
        this.listKind = listKind;
        this.items = items;
        this.listResourceVersion = String.valueOf(listResourceVersion);
    }

    /** The objects in this order; their resourceVersions must be set and below {@code objects.size() + 1}. */
    static PreparedList of(Class<? extends HasMetadata> type, List<? extends HasMetadata> objects,
            KubernetesSerialization serialization) {
        List<byte[]> items = new ArrayList<>(objects.size());
        for (HasMetadata object : objects) {
            items.add(serialization.asJson(object).getBytes(StandardCharsets.UTF_8));
        }
        return new PreparedList(HasMetadata.getApiVersion(type), HasMetadata.getKind(type) + "List", items,
                objects.size() + 1L);
    }

    int size() {
        return items.size();
    }

    /** The average serialized size of one object, in bytes. */
    long averageJsonBytes() {
        return items.isEmpty() ? 0 : items.stream().mapToLong(item -> item.length).sum() / items.size();
    }

    /**
     * One page: {@code limit} objects from {@code offset} (limit 0: all of them), with a continue
     * token (the next offset) when more follow, as the API server pages a list.
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
        out.writeBytes(("{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + listKind
                + "\",\"metadata\":{\"resourceVersion\":\"" + listResourceVersion + "\"" + more + "},\"items\":[")
                .getBytes(StandardCharsets.UTF_8));
        for (int i = from; i < to; i++) {
            if (i > from) {
                out.writeBytes(COMMA);
            }
            out.writeBytes(items.get(i));
        }
        out.writeBytes("]}".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
