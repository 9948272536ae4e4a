package dev.kubeloop.autoconfigure;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.core.env.Environment;

/**
 * How each {@link SwitchCondition} decided while a context's bean definitions were read: a singleton
 * of that context's bean factory, written by the conditions and read by
 * {@link SwitchDecisionsAotProcessor} when the context is processed ahead of time. At the start of an
 * application processed so, {@link #verify} decides every switch again, against the environment it
 * starts in, and fails start-up naming the first one that decides otherwise: without it, a chart that
 * switches sharding on would start a pod that elects a leader instead (the beans were chosen at
 * build time), and nothing would say so.
 *
 * <p>Thread safety: the conditions of one context are evaluated on the thread that refreshes it; the
 * map is only read after that refresh (or the AOT processing) has read the definitions.
 */
public final class SwitchDecisions {

    static final String BEAN_NAME = "kubeloopSwitchDecisions";

    /** Condition class name to its decision; sorted, so the generated code is the same build to build. */
    private final Map<String, Decision> decisions = new TreeMap<>();

    /** A switch's decision: on or off, and what decided it. */
    record Decision(boolean on, String message) {
    }

    static void record(@Nullable ConfigurableListableBeanFactory beanFactory, Class<?> condition,
            ConditionOutcome outcome) {
        if (beanFactory == null) {
            return;
        }
        if (!beanFactory.containsSingleton(BEAN_NAME)) {
            beanFactory.registerSingleton(BEAN_NAME, new SwitchDecisions());
        }
        ((SwitchDecisions) beanFactory.getSingleton(BEAN_NAME)).decisions
                .put(condition.getName(), new Decision(outcome.isMatch(), outcome.getMessage()));
    }

    /** A copy of the decisions recorded in the bean factory, sorted by condition class name; empty if none. */
    static SortedMap<String, Decision> recordedIn(ConfigurableListableBeanFactory beanFactory) {
        if (!beanFactory.containsSingleton(BEAN_NAME)) {
            return new TreeMap<>();
        }
        return new TreeMap<>(((SwitchDecisions) beanFactory.getSingleton(BEAN_NAME)).decisions);
    }

    /**
     * Called by the code Spring AOT generated: decides every switch again in the environment this
     * application starts in and fails if one decides otherwise than at build time.
     *
     * @param built per switch three strings: the condition's class name, "true" or "false", and the
     *     message of its decision at build time
     */
    public static void verify(Environment environment, String... built) {
        List<String> changed = new ArrayList<>();
        for (int i = 0; i + 2 < built.length; i += 3) {
            ConditionOutcome now = instantiate(built[i]).decide(environment);
            if (now.isMatch() != Boolean.parseBoolean(built[i + 1])) {
                changed.add("here " + now.getMessage() + ", at build time " + built[i + 2]);
            }
        }
        if (!changed.isEmpty()) {
            throw new KubeloopConfigurationException("This application was processed ahead of time (Spring AOT), "
                    + "which chose Kubeloop's beans when it was built, and a switch decides otherwise now: "
                    + String.join("; ", changed) + ".",
                    "Build the application with the same setting (process-aot reads the build's properties and "
                            + "environment), or start it without -Dspring.aot.enabled=true.");
        }
    }

    /** The switch of that class, created as the check at start-up creates it. */
    static SwitchCondition instantiate(String className) {
        try {
            var constructor = Class.forName(className, true, SwitchDecisions.class.getClassLoader())
                    .asSubclass(SwitchCondition.class).getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ClassNotFoundException | NoSuchMethodException | InstantiationException | IllegalAccessException
                | InvocationTargetException e) {
            throw new IllegalStateException("Cannot create the switch " + className
                    + " that this application's ahead-of-time processing recorded", e);
        }
    }
}
