{{/* Chart name, truncated to the 63 characters a label value allows. */}}
{{- define "operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Fully qualified app name: release-chart, unless the release name already contains the chart name. */}}
{{- define "operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "operator.labels" -}}
helm.sh/chart: {{ include "operator.chart" . }}
{{ include "operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Prometheus job of the metrics Service, used by the alert expressions. */}}
{{- define "operator.metricsJob" -}}
{{ include "operator.fullname" . }}-metrics
{{- end }}

{{/*
Every CRD the build generated from the Java classes and copied into files/ (./mvnw compile does),
one per kind, one kind or many: the chart installs them and derives the RBAC rules and the
reconcilers' settings from them. As {items: [...]}, because fromYaml reads a map.
*/}}
{{- define "operator.crds" -}}
{{- $files := .Files.Glob "files/*.yml" -}}
{{- if not $files }}
{{- fail "files/ holds no CRD: build the project (./mvnw compile), which generates one per custom resource class and copies it there" }}
{{- end }}
items:
{{- range $path, $_ := $files }}
  - {{ $.Files.Get $path | fromYaml | toJson }}
{{- end }}
{{- end }}

{{/* The storage version of a CRD (the argument). */}}
{{- define "operator.version" -}}
{{- range .spec.versions }}{{ if .storage }}{{ .name }}{{ end }}{{ end }}
{{- end }}


{{/*
What the operator does, and nothing more, generated from its code at build time (files/kubeloop/rbac.yaml,
written by kubeloop:manifests from the reconcilers' declarations; Kubeloop's docs/security.md explains
each rule): the custom resource (read, status, the finalizers subresource that an owner reference with
blockOwnerDeletion needs), the kinds it owns (server-side apply is a patch, or a create), delete only on
what @Reconciler(deletes) names, Events; plus what sharding (the slot label) adds when it is on.
*/}}
{{- define "operator.rules" -}}
{{- $rbac := include "operator.generatedRbac" . | fromYaml -}}
{{- $rules := $rbac.workload -}}
{{- if .Values.sharding.enabled }}{{ $rules = concat $rules $rbac.options.sharding.workload }}
{{- else if .Values.leaderElection.enabled }}{{ $rules = concat $rules $rbac.options.leaderElection.workload }}{{ end -}}
{{- toYaml $rules }}
{{- end }}

{{/* files/kubeloop/rbac.yaml, or a failure saying how to make it. */}}
{{- define "operator.generatedRbac" -}}
{{- $file := .Files.Get "files/kubeloop/rbac.yaml" -}}
{{- if not $file }}{{ fail "files/kubeloop/rbac.yaml is missing: build the project (./mvnw package), which writes it from the code" }}{{ end -}}
{{- $file }}
{{- end }}

{{/* files/kubeloop/webhooks.yaml, or a failure saying how to make it. */}}
{{- define "operator.generatedWebhooks" -}}
{{- $file := .Files.Get "files/kubeloop/webhooks.yaml" -}}
{{- if not $file }}{{ fail "files/kubeloop/webhooks.yaml is missing: build the project (./mvnw package), which writes it from the code" }}{{ end -}}
{{- $file }}
{{- end }}

{{/*
Non-empty when the operator works in listed namespaces (Roles, nothing cluster-wide): namespaced
resources only, without watchAllNamespaces. Empty: a ClusterRole (a cluster-scoped resource among
them, which a Role cannot grant, or watchAllNamespaces).
*/}}
{{- define "operator.namespacedScope" -}}
{{- if and (not (include "operator.clusterScopedKinds" .)) (not .Values.watchAllNamespaces) }}true{{ end }}
{{- end }}

{{/* The cluster-scoped kinds among the CRDs, comma-separated; empty when all are namespaced. */}}
{{- define "operator.clusterScopedKinds" -}}
{{- $kinds := list -}}
{{- range (include "operator.crds" . | fromYaml).items }}{{ if eq .spec.scope "Cluster" }}{{ $kinds = append $kinds .spec.names.kind }}{{ end }}{{ end -}}
{{- join ", " $kinds }}
{{- end }}

{{/* The namespaces the operator works in, comma-separated: watchNamespaces, or the release namespace. */}}
{{- define "operator.watchedNamespaces" -}}
{{- .Values.watchNamespaces | default (list .Release.Namespace) | join "," }}
{{- end }}
