// Runs after the archetype's files are written: what Velocity cannot do.
import java.nio.file.Files
import java.nio.file.Path

Path project = Path.of(request.outputDirectory, request.artifactId)
Properties properties = request.properties

String kind = properties.getProperty('kind')

// Without webhooks, the validator, the defaulter and their test go.
if (properties.getProperty('webhooks') != 'true') {
    Path sources = project.resolve('src/main/java').resolve(properties.getProperty('package').replace('.', '/'))
    Path tests = project.resolve('src/test/java').resolve(properties.getProperty('package').replace('.', '/'))
    Files.deleteIfExists(sources.resolve(kind + 'Validator.java'))
    Files.deleteIfExists(sources.resolve(kind + 'Defaulter.java'))
    Files.deleteIfExists(tests.resolve(kind + 'WebhooksTest.java'))
}

// examples/<kind>.yaml: file names take properties as they are, and manifests go in lower case
Files.move(project.resolve('examples').resolve(kind + '.yaml'),
        project.resolve('examples').resolve(kind.toLowerCase(Locale.ROOT) + '.yaml'))

// An archetype keeps no file modes, and Maven's resources drop dot files: restore both.
project.resolve('mvnw').toFile().setExecutable(true, false)
Files.move(project.resolve('gitignore'), project.resolve('.gitignore'))
