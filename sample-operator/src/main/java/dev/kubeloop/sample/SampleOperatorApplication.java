package dev.kubeloop.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Entry point of the Kubeloop sample operator. */
@SpringBootApplication
public class SampleOperatorApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleOperatorApplication.class, args);
    }
}
