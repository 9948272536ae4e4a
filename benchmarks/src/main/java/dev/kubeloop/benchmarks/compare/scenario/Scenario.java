package dev.kubeloop.benchmarks.compare.scenario;

/** One benchmark situation, run once per contender and round, each time in a fresh contender JVM. */
public interface Scenario {

    /** The name used on the command line and in the table, e.g. {@code coldstart}. */
    String name();

    /** What {@link Measurement#value()} is, with its unit, e.g. {@code time s}; lower is better. */
    String metric();

    /** Whether the scenario means anything for this contender (one that reconciles nothing only starts). */
    default boolean supports(String contender) {
        return ScenarioContext.reconciles(contender);
    }

    Measurement run(String contender, int round, ScenarioContext context) throws Exception;
}
