/**
 * Testing a Helm chart against what the code declares: {@link dev.kubeloop.test.chart.GeneratedRbac}
 * reads the rules {@code kubeloop:manifests} wrote into the chart ({@code files/kubeloop/rbac.yaml}),
 * to compare with the Roles the chart renders.
 */
package dev.kubeloop.test.chart;
