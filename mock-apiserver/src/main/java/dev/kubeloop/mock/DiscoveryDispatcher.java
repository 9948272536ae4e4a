package dev.kubeloop.mock;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Teaches a fabric8 mock API server's dispatcher API discovery, the first thing {@code kubectl}
 * asks: {@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/<group>},
 * {@code /apis/<group>/<version>} and {@code /version}. In CRUD mode the mock answers those paths
 * with a list of every stored object, which kubectl cannot read ({@code the server doesn't have a
 * resource type "websites"}); with this dispatcher in front, {@code kubectl --server <url> get
 * websites} works.
 *
 * <p>What it serves: the built-in types of {@link BuiltInResources} (those an operator usually
 * touches), and every custom resource of the CustomResourceDefinitions stored in the mock, read
 * from it at each request (created, changed or deleted CRDs show at once): per served version,
 * the plural with its kind, scope, singular and short names, and {@code <plural>/status} when the
 * CRD has the status subresource. {@code /openapi/v2} and {@code /openapi/v3} answer 404, which
 * tells kubectl that there is no schema to validate against (the mock has none). Aggregated
 * discovery is not served: kubectl falls back to these documents by itself.
 *
 * <p>Everything else goes to the delegate unchanged. Thread-safe: stateless apart from the delegate.
 */
public final class DiscoveryDispatcher extends DecoratingDispatcher {

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final List<String> ALL_VERBS = List.of("create", "delete", "deletecollection", "get", "list",
            "patch", "update", "watch");
    private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");

    private final KubernetesSerialization serialization = new KubernetesSerialization();

    /** Wraps {@code delegate}: everything but discovery goes to it unchanged. */
    public DiscoveryDispatcher(Dispatcher delegate) {
        super(delegate);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (request.method() != HttpMethod.GET || request.getPath() == null) {
            return delegate.dispatch(request);
        }
        String path = request.getPath();
        int query = path.indexOf('?');
        String[] segments = (query < 0 ? path : path.substring(0, query)).replaceAll("^/+|/+$", "").split("/");
        return answer(segments).orElseGet(() -> delegate.dispatch(request));
    }

    /** The discovery document at {@code segments}; empty when the path is not discovery (an object, a list). */
    private Optional<MockResponse> answer(String[] segments) {
        String root = segments[0];
        if (segments.length == 1 && root.equals("version")) {
            return Optional.of(json(Map.of("major", "1", "minor", "33", "gitVersion", "v1.33.0-kubeloop-mock",
                    "gitCommit", "", "gitTreeState", "clean", "buildDate", "2026-01-01T00:00:00Z", "goVersion", "",
                    "compiler", "", "platform", "java")));
        }
        if (root.equals("openapi") && segments.length == 2 && segments[1].equals("v2")) {
            // kubectl reads this protobuf document to validate objects on the client; an empty
            // message is a valid, empty document: no schema, so kubectl validates nothing
            return Optional.of(new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK)
                    .setHeader("Content-Type", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf")
                    .setBody(""));
        }
        if (root.equals("openapi")) {
            return Optional.of(notFound("the embedded API server has no OpenAPI v3 schema"));
        }
        if (root.equals("api") && segments.length == 1) {
            return Optional.of(json(new APIVersionsBuilder().withVersions("v1").build()));
        }
        if (root.equals("api") && segments.length == 2) {
            return Optional.of(segments[1].equals("v1") ? resourceList("v1", BuiltInResources.of("", "v1"))
                    : notFound("the server could not find the requested resource"));
        }
        if (!root.equals("apis") || segments.length > 3) {
            return Optional.empty();
        }
        Map<String, APIGroup> groups = groups();
        if (segments.length == 1) {
            return Optional.of(json(new APIGroupListBuilder().withGroups(new ArrayList<>(groups.values())).build()));
        }
        APIGroup group = groups.get(segments[1]);
        if (segments.length == 2) {
            return Optional.of(group == null ? notFound("the server could not find the requested resource")
                    : json(group));
        }
        String version = segments[2];
        if (group == null || group.getVersions().stream().noneMatch(v -> v.getVersion().equals(version))) {
            return Optional.of(notFound("the server could not find the requested resource"));
        }
        List<APIResource> resources = new ArrayList<>(BuiltInResources.of(group.getName(), version));
        for (CustomResourceDefinition crd : crds()) {
            if (crd.getSpec().getGroup().equals(group.getName())) {
                crd.getSpec().getVersions().stream().filter(v -> version.equals(v.getName()) && served(v))
                        .findFirst().ifPresent(v -> resources.addAll(resources(crd, v)));
            }
        }
        return Optional.of(resourceList(group.getName() + "/" + version, resources));
    }

    /** The built-in groups, then the groups of the stored CRDs; a CRD's group may also be a built-in one. */
    private Map<String, APIGroup> groups() {
        Map<String, List<String>> versions = new LinkedHashMap<>(BuiltInResources.groupVersions());
        Map<String, String> preferred = new LinkedHashMap<>();
        for (CustomResourceDefinition crd : crds()) {
            String group = crd.getSpec().getGroup();
            for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
                if (served(version)) {
                    List<String> known = versions.computeIfAbsent(group, g -> new ArrayList<>());
                    if (!known.contains(version.getName())) {
                        known.add(version.getName());
                    }
                    if (Boolean.TRUE.equals(version.getStorage())) {
                        preferred.putIfAbsent(group, version.getName());
                    }
                }
            }
        }
        Map<String, APIGroup> groups = new LinkedHashMap<>();
        versions.forEach((name, list) -> {
            List<GroupVersionForDiscovery> discovered = list.stream()
                    .map(v -> new GroupVersionForDiscovery(name + "/" + v, v)).toList();
            String preferredVersion = preferred.getOrDefault(name, list.get(0));
            groups.put(name, new APIGroupBuilder().withName(name).withVersions(discovered)
                    .withPreferredVersion(new GroupVersionForDiscovery(name + "/" + preferredVersion,
                            preferredVersion))
                    .build());
        });
        return groups;
    }

    private static List<APIResource> resources(CustomResourceDefinition crd, CustomResourceDefinitionVersion version) {
        var names = crd.getSpec().getNames();
        boolean namespaced = "Namespaced".equals(crd.getSpec().getScope());
        List<APIResource> resources = new ArrayList<>();
        resources.add(new APIResourceBuilder().withName(names.getPlural()).withSingularName(names.getSingular())
                .withKind(names.getKind()).withNamespaced(namespaced).withVerbs(ALL_VERBS)
                .withShortNames(names.getShortNames()).withCategories(names.getCategories())
                .withStorageVersionHash("").build());
        if (version.getSubresources() != null && version.getSubresources().getStatus() != null) {
            resources.add(new APIResourceBuilder().withName(names.getPlural() + "/status").withSingularName("")
                    .withKind(names.getKind()).withNamespaced(namespaced).withVerbs(STATUS_VERBS).build());
        }
        return resources;
    }

    private static boolean served(CustomResourceDefinitionVersion version) {
        return !Boolean.FALSE.equals(version.getServed());
    }

    /** The CRDs stored in the mock now, asked of the delegate as any client would. */
    private List<CustomResourceDefinition> crds() {
        MockResponse response = delegate.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, CRDS,
                Headers.builder().build(), new Buffer()));
        if (response.code() != HttpURLConnection.HTTP_OK) {
            return List.of();
        }
        CustomResourceDefinitionList list = serialization.unmarshal(response.getBody().readUtf8(),
                CustomResourceDefinitionList.class);
        return list.getItems() == null ? List.of() : list.getItems().stream()
                .filter(crd -> crd.getSpec() != null && crd.getSpec().getNames() != null
                        && crd.getSpec().getVersions() != null)
                .toList();
    }

    private MockResponse resourceList(String groupVersion, List<APIResource> resources) {
        return json(new APIResourceListBuilder().withGroupVersion(groupVersion).withResources(resources).build());
    }

    private MockResponse json(Object body) {
        return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setHeader("Content-Type",
                "application/json").setBody(serialization.asJson(body));
    }

    private MockResponse notFound(String message) {
        return failure(serialization, HttpURLConnection.HTTP_NOT_FOUND, "NotFound", message);
    }
}
