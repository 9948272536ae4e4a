package dev.kubeloop.maven;

import java.io.File;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/** What both scaffolding goals take: the kind, the package, the project; and how they fail. */
abstract class ScaffoldMojo extends AbstractMojo {

    /** The kind: an UpperCamel Java class name (Backup). */
    @Parameter(property = "kind", required = true)
    protected String kind;

    /** The Java package of the classes; default: the {@code @SpringBootApplication} class's. */
    @Parameter(property = "package")
    protected String packageName;

    @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
    private File basedir;

    /** One goal's work on a {@link Scaffold} of this project. */
    interface Work {
        void on(Scaffold scaffold) throws ScaffoldException;
    }

    /** Runs {@code work}; a refused request fails the build with its message (the property, what to do). */
    protected void scaffold(Work work) throws MojoFailureException {
        try {
            work.on(new Scaffold(basedir.toPath(), getLog()::info));
        } catch (ScaffoldException e) {
            throw new MojoFailureException(e.getMessage(), e);
        }
    }
}
