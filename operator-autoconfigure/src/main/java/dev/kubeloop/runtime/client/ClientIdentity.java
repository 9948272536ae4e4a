package dev.kubeloop.runtime.client;

import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says, in one line, which API server a client talks to and as whom: the first question of every
 * failed install ("which cluster? which user?"). Read from the client's configuration only (no
 * request): the URL; where the configuration came from (the kubeconfig file and context, or the
 * pod's service account); and the identity the API server will see, as far as the credentials
 * name it: a client certificate's subject (user and groups), a service account token's subject,
 * a basic-auth user name, an impersonated user. Never a secret: token, key or password are not
 * read beyond a JWT's {@code sub} claim, which is not secret.
 *
 * <p>Stateless.
 */
public final class ClientIdentity {

    private static final Pattern JWT_SUBJECT = Pattern.compile("\"sub\"\\s*:\\s*\"([^\"]*)\"");

    private ClientIdentity() {
    }

    /**
     * {@code https://10.0.0.1:6443/ as system:serviceaccount:ops:my-operator (service account token;
     * in-cluster configuration)}. Never throws: what cannot be read is left out.
     */
    public static String describe(Config config) {
        return config.getMasterUrl() + " as " + identity(config) + " (" + source(config) + ")";
    }

    static String identity(Config config) {
        String identity = credentials(config);
        if (config.getImpersonateUsername() != null && !config.getImpersonateUsername().isBlank()) {
            return config.getImpersonateUsername() + ", impersonated by " + identity;
        }
        return identity;
    }

    private static String credentials(Config config) {
        String certificate = certificateSubject(config);
        if (certificate != null) {
            return certificate;
        }
        String token = config.getOauthToken() != null ? config.getOauthToken() : config.getAutoOAuthToken();
        if (token != null && !token.isBlank()) {
            String subject = jwtSubject(token);
            return subject != null ? subject + " (bearer token)" : "the holder of a bearer token";
        }
        if (config.getUsername() != null && !config.getUsername().isBlank()) {
            return config.getUsername() + " (basic authentication)";
        }
        if (config.getAuthProvider() != null && config.getAuthProvider().getName() != null) {
            return "the user of auth provider " + config.getAuthProvider().getName();
        }
        if (config.getOauthTokenProvider() != null) {
            return "the holder of a token from " + config.getOauthTokenProvider().getClass().getSimpleName();
        }
        return "an anonymous user (no credentials)";
    }

    /** {@code kubernetes-admin (groups system:masters; client certificate)}, or null without one. */
    private static String certificateSubject(Config config) {
        try (InputStream pem = certificate(config)) {
            if (pem == null) {
                return null;
            }
            X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(pem);
            String user = null;
            List<String> groups = new ArrayList<>();
            for (String part : certificate.getSubjectX500Principal().getName().split(",(?=[A-Za-z]+=)")) {
                if (part.startsWith("CN=")) {
                    user = part.substring(3);
                } else if (part.startsWith("O=")) {
                    groups.add(part.substring(2));
                }
            }
            String name = user == null ? certificate.getSubjectX500Principal().getName() : user;
            return name + " (" + (groups.isEmpty() ? "" : "groups " + String.join(", ", groups) + "; ")
                    + "client certificate)";
        } catch (Exception e) {
            return config.getClientCertFile() != null || config.getClientCertData() != null
                    ? "the subject of a client certificate that does not read (" + e.getMessage() + ")" : null;
        }
    }

    private static InputStream certificate(Config config) throws java.io.IOException {
        if (config.getClientCertData() != null && !config.getClientCertData().isBlank()) {
            byte[] data = Base64.getMimeDecoder().decode(config.getClientCertData());
            return new ByteArrayInputStream(data);
        }
        if (config.getClientCertFile() != null && !config.getClientCertFile().isBlank()) {
            return Files.newInputStream(Path.of(config.getClientCertFile()));
        }
        return null;
    }

    /** The {@code sub} claim of a JWT (a service account token), or null when the token is not one. */
    static String jwtSubject(String token) {
        String[] parts = token.split("\\.");
        if (parts.length != 3) {
            return null;
        }
        try {
            String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
            Matcher subject = JWT_SUBJECT.matcher(payload);
            return subject.find() ? subject.group(1) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String source(Config config) {
        NamedContext context = config.getCurrentContext();
        if (context != null) {
            // a Config built in code may name a context without any file (fabric8's mock server does)
            String file = config.getFile() != null ? "kubeconfig " + config.getFile() + ", " : "";
            String user = context.getContext() != null && context.getContext().getUser() != null
                    ? ", user entry " + context.getContext().getUser() : "";
            return file + "context " + context.getName() + user;
        }
        if (System.getenv("KUBERNETES_SERVICE_HOST") != null) {
            return "in-cluster configuration: the pod's service account";
        }
        return "no kubeconfig context: system properties, environment or code";
    }
}
