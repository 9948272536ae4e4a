package dev.kubeloop.test;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The operator under test in the kit's own tests: the Gadget reconciler of this package. */
@SpringBootApplication
public class KitTestApplication {
}
