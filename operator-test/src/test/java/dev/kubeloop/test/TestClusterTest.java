package dev.kubeloop.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestClusterTest {

    @Test
    void namespaceNamesAreValidUniqueAndSayWhichTestMadeThem() {
        String a = RealTestCluster.namespaceFor("WebsiteReconcilerTest");
        String b = RealTestCluster.namespaceFor("WebsiteReconcilerTest");
        String long_ = RealTestCluster.namespaceFor("AVeryLongTestClassNameThatGoesOnAndOnForeverAndEverTest");

        assertThat(a).startsWith("kl-website-reconciler-test-").isNotEqualTo(b);
        for (String name : new String[] {a, b, long_}) {
            assertThat(name).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?").hasSizeLessThanOrEqualTo(63);
        }
    }
}
