package dev.kubeloop.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up line "which API server, as whom", for each kind of credentials, and never a secret. */
class ClientIdentityTest {

    private static final String URL = "https://10.0.0.1:6443/";

    @Test
    void aClientCertificateNamesItsUserAndGroups() throws Exception {
        Config config = base().withClientCertData(Base64.getEncoder().encodeToString(
                pem("O=system:masters, O=devs, CN=jane").getBytes(StandardCharsets.US_ASCII))).build();

        assertThat(ClientIdentity.describe(config))
                .startsWith(URL + " as jane (groups devs, system:masters; client certificate) (");
    }

    @Test
    void aCertificateFileReadsTheSame(@TempDir Path directory) throws Exception {
        Path file = Files.writeString(directory.resolve("client.crt"), pem("CN=robot"));

        assertThat(ClientIdentity.identity(base().withClientCertFile(file.toString()).build()))
                .isEqualTo("robot (client certificate)");
    }

    @Test
    void aServiceAccountTokenNamesItsSubjectAndNeverTheToken() {
        String token = jwt("{\"iss\":\"kubernetes/serviceaccount\",\"sub\":\"system:serviceaccount:ops:my-operator\"}");

        String line = ClientIdentity.describe(base().withOauthToken(token).build());

        assertThat(line).contains("as system:serviceaccount:ops:my-operator (bearer token)").doesNotContain(token)
                .doesNotContain(token.split("\\.")[2]);
    }

    @Test
    void anOpaqueTokenIsNotShown() {
        String line = ClientIdentity.describe(base().withOauthToken("s3cr3t-opaque-token").build());

        assertThat(line).contains("as the holder of a bearer token").doesNotContain("s3cr3t");
    }

    @Test
    void basicAuthenticationShowsTheUserNotThePassword() {
        String line = ClientIdentity.describe(base().withUsername("admin").withPassword("hunter2").build());

        assertThat(line).contains("as admin (basic authentication)").doesNotContain("hunter2");
    }

    @Test
    void impersonationSaysWhoIsImpersonatedAndByWhom() {
        assertThat(ClientIdentity.identity(base().withUsername("admin").withImpersonateUsername("jane").build()))
                .isEqualTo("jane, impersonated by admin (basic authentication)");
    }

    @Test
    void noCredentialsIsAnonymous() {
        assertThat(ClientIdentity.identity(base().build())).isEqualTo("an anonymous user (no credentials)");
    }

    @Test
    void aKubeconfigNamesItsFileContextAndUserEntry(@TempDir Path directory) throws Exception {
        Path kubeconfig = Files.writeString(directory.resolve("config"), """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: lab
                    cluster: {server: "https://lab.example.com:6443"}
                users:
                  - name: lab-admin
                    user: {username: admin, password: hunter2}
                contexts:
                  - name: lab
                    context: {cluster: lab, user: lab-admin, namespace: team-a}
                current-context: lab
                """);

        String line = ClientIdentity.describe(Config.fromKubeconfig(null, kubeconfig.toFile()));

        assertThat(line).isEqualTo("https://lab.example.com:6443/ as admin (basic authentication) (kubeconfig "
                + kubeconfig + ", context lab, user entry lab-admin)");
    }

    private static ConfigBuilder base() {
        return new ConfigBuilder(Config.empty()).withMasterUrl(URL);
    }

    private static String jwt(String payload) {
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        return encoder.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + encoder.encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + ".c2lnbmF0dXJl";
    }

    private static String pem(String subject) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();
        X500Name name = new X500Name(subject);
        Instant now = Instant.now();
        byte[] der = new JcaX509v3CertificateBuilder(name, BigInteger.ONE, Date.from(now.minusSeconds(60)),
                Date.from(now.plusSeconds(3600)), name, keys.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())).getEncoded();
        return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder().encodeToString(der)
                + "\n-----END CERTIFICATE-----\n";
    }
}
