package dev.kubeloop.sharding;

import java.util.Collections;
import java.util.Iterator;
import java.util.SortedSet;
import java.util.StringJoiner;
import java.util.TreeSet;

/**
 * Sets of buckets as a member's Lease writes them: ascending ranges and single buckets,
 * comma-separated ({@code 0-5,9,12-13}); empty for none. Short even for a thousand buckets, and
 * readable in {@code kubectl get lease -o yaml}. Stateless.
 */
final class BucketSets {

    private BucketSets() {
    }

    static String format(SortedSet<Integer> buckets) {
        StringJoiner text = new StringJoiner(",");
        Iterator<Integer> it = buckets.iterator();
        if (!it.hasNext()) {
            return "";
        }
        int start = it.next();
        int end = start;
        while (it.hasNext()) {
            int next = it.next();
            if (next == end + 1) {
                end = next;
                continue;
            }
            text.add(range(start, end));
            start = next;
            end = next;
        }
        text.add(range(start, end));
        return text.toString();
    }

    /**
     * The buckets {@code text} names.
     *
     * @throws IllegalArgumentException if it is not a list of buckets and ranges
     */
    static SortedSet<Integer> parse(String text) {
        SortedSet<Integer> buckets = new TreeSet<>();
        if (text == null || text.isBlank()) {
            return Collections.unmodifiableSortedSet(buckets);
        }
        for (String part : text.split(",")) {
            String item = part.trim();
            int dash = item.indexOf('-');
            try {
                if (dash < 0) {
                    buckets.add(nonNegative(Integer.parseInt(item), text));
                    continue;
                }
                int from = nonNegative(Integer.parseInt(item.substring(0, dash)), text);
                int to = nonNegative(Integer.parseInt(item.substring(dash + 1)), text);
                if (to < from) {
                    throw new IllegalArgumentException("'" + text + "' has a descending range " + item);
                }
                for (int bucket = from; bucket <= to; bucket++) {
                    buckets.add(bucket);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is not a list of buckets such as 0-5,9", e);
            }
        }
        return Collections.unmodifiableSortedSet(buckets);
    }

    private static int nonNegative(int bucket, String text) {
        if (bucket < 0) {
            throw new IllegalArgumentException("'" + text + "' names a negative bucket");
        }
        return bucket;
    }

    private static String range(int start, int end) {
        return start == end ? Integer.toString(start) : start + "-" + end;
    }
}
