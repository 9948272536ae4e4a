package dev.kubeloop.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.generate.GeneratedMethod;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.TypeReference;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.javapoet.CodeBlock;

/**
 * When an application is processed ahead of time (Spring AOT), adds to its generated initializer a
 * call of {@link SwitchDecisions#verify} with how each Kubeloop switch decided at build time, so
 * that the processed application fails start-up, naming the switch, where it would otherwise start
 * with beans chosen for another setting. Registered in {@code META-INF/spring/aot.factories}.
 */
final class SwitchDecisionsAotProcessor implements BeanFactoryInitializationAotProcessor {

    @Override
    public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
            ConfigurableListableBeanFactory beanFactory) {
        Map<String, SwitchDecisions.Decision> decisions = SwitchDecisions.recordedIn(beanFactory);
        if (decisions.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> {
            List<CodeBlock> arguments = new ArrayList<>();
            decisions.forEach((condition, decision) -> {
                arguments.add(CodeBlock.of("$S, $S, $S", condition, decision.on(), decision.message()));
                // verify creates each condition again (by its no-argument constructor)
                generationContext.getRuntimeHints().reflection().registerType(TypeReference.of(condition),
                        MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
            });
            GeneratedMethod method = code.getMethods().add("verifyKubeloopSwitches", builder -> builder
                    .addJavadoc("Fails start-up if a Kubeloop switch decides otherwise than when this was generated.")
                    .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                    .addParameter(Environment.class, "environment")
                    .addStatement("$T.verify(environment, $L)", SwitchDecisions.class,
                            CodeBlock.join(arguments, ",\n")));
            code.addInitializer(method.toMethodReference());
        };
    }
}
