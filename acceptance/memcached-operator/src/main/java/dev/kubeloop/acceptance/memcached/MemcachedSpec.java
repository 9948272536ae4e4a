package dev.kubeloop.acceptance.memcached;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** The original's spec: the kubebuilder markers {@code Minimum=1}, {@code Maximum=3} become the schema's bounds. */
public class MemcachedSpec {

    @Min(1)
    @Max(3)
    @JsonPropertyDescription("Size defines the number of Memcached instances")
    private Integer size;

    @JsonPropertyDescription("Port defines the port that will be used to init the container with the image")
    private Integer containerPort;

    public Integer getSize() {
        return size;
    }

    public void setSize(Integer size) {
        this.size = size;
    }

    public Integer getContainerPort() {
        return containerPort;
    }

    public void setContainerPort(Integer containerPort) {
        this.containerPort = containerPort;
    }
}
