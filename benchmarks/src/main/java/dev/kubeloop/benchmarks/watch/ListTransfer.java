package dev.kubeloop.benchmarks.watch;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One LIST of a namespace's Secrets, as an informer asks for it: whole objects, or
 * {@code PartialObjectMetadataList} with the metadata-only informer's {@code Accept} header; from
 * the API server's watch cache ({@code resourceVersion=0}, what fabric8's informer asks for when
 * it lists in one response) or from etcd (no resourceVersion: a consistent read, as every page of
 * a paged list is). Sent through the client's own HTTP client (its authentication, no compression
 * asked for); measures the response body and the time until it has been received in full, not
 * parsed. Stateless.
 *
 * @param metadataOnly whether the metadata-only {@code Accept} header was sent
 * @param watchCache whether the list was asked of the watch cache
 * @param bytes the response body's length
 * @param millis from sending the request to the last byte of the body
 * @param kind the list's kind, which tells whether the server answered metadata only
 *     ({@code PartialObjectMetadataList}) or with whole objects ({@code SecretList})
 */
record ListTransfer(boolean metadataOnly, boolean watchCache, long bytes, double millis, String kind) {

    private static final Pattern KIND = Pattern.compile("\"kind\"\\s*:\\s*\"([^\"]+)\"");

    /** The header {@code MetadataListerWatcher} sends for a list. */
    private static final String METADATA_ONLY = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
            + "application/json";
    private static final String WHOLE = "application/json";

    static ListTransfer measure(KubernetesClient client, String namespace, boolean metadataOnly, boolean watchCache)
            throws InterruptedException, ExecutionException {
        HttpClient http = client.getHttpClient();
        URI uri = URI.create(client.getMasterUrl().toString()).resolve("/api/v1/namespaces/" + namespace + "/secrets"
                + (watchCache ? "?resourceVersion=0" : ""));
        HttpRequest request = http.newHttpRequestBuilder().uri(uri).header("Accept",
                metadataOnly ? METADATA_ONLY : WHOLE).build();
        long start = System.nanoTime();
        HttpResponse<byte[]> response = http.sendAsync(request, byte[].class).get();
        double millis = (System.nanoTime() - start) / 1e6;
        if (response.code() != 200) {
            throw new IllegalStateException("LIST " + uri + " answered " + response.code());
        }
        // the API server writes kind first; the items' kinds come later
        String head = new String(response.body(), 0, Math.min(response.body().length, 200), StandardCharsets.UTF_8);
        Matcher kind = KIND.matcher(head);
        return new ListTransfer(metadataOnly, watchCache, response.body().length, millis,
                kind.find() ? kind.group(1) : "?");
    }
}
