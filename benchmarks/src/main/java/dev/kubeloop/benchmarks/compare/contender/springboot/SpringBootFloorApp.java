package dev.kubeloop.benchmarks.compare.contender.springboot;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application with nothing of its own: what {@code @SpringBootApplication} costs on the
 * benchmark's class path before any Kubernetes code runs. Its own package, so the component scan
 * finds no other contender's beans.
 */
@SpringBootApplication
public class SpringBootFloorApp {
}
