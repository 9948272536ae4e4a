package dev.kubeloop.autoconfigure.scan;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/** Stands in for a @SpringBootApplication in this package: registers it as auto-configuration package. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class ScanningApplication {
}
