{{/* Chart name, truncated to the 63 characters a label value allows. */}}
{{- define "sample-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Fully qualified app name: release-chart, unless the release name already contains the chart name. */}}
{{- define "sample-operator.fullname" -}}
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

{{- define "sample-operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "sample-operator.labels" -}}
helm.sh/chart: {{ include "sample-operator.chart" . }}
{{ include "sample-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: kubeloop
{{- end }}

{{- define "sample-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sample-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "sample-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "sample-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Prometheus job of the metrics Service, used by the alert expressions. */}}
{{- define "sample-operator.metricsJob" -}}
{{ include "sample-operator.fullname" . }}-metrics
{{- end }}

{{/* The namespaces the operator works in, comma-separated: watchNamespaces, or the release namespace. */}}
{{- define "sample-operator.watchedNamespaces" -}}
{{- .Values.watchNamespaces | default (list .Release.Namespace) | join "," }}
{{- end }}

{{- /*
What the operator does to Websites and the objects it owns: the rules of its Roles (or, with
watchAllNamespaces, its ClusterRole), generated from the operator's code (files/kubeloop/rbac.yaml,
written by kubeloop:manifests at build time; docs/security.md explains each rule): server-side apply
is a patch (and a create for a new object), never an update; the only delete is the one
@Reconciler(deletes) declares, Kubeloop's pruning of the <name>-tls ConfigMap when a Website stops
serving HTTPS (Services and Deployments go with their Website through the garbage collector). Options
switched on here add their rules: tlsSecrets.watch list/watch on Secrets (metadata-only in the code,
not in RBAC), sharding what the slot label needs.
*/ -}}
{{- define "sample-operator.workloadRules" -}}
{{- $rbac := include "sample-operator.generatedRbac" . | fromYaml -}}
{{- $rules := $rbac.workload -}}
{{- if .Values.tlsSecrets.watch }}{{ $rules = concat $rules $rbac.options.tlsSecrets.workload }}{{ end -}}
{{- if .Values.sharding.enabled }}{{ $rules = concat $rules $rbac.options.sharding.workload }}
{{- else if .Values.leaderElection.enabled }}{{ $rules = concat $rules $rbac.options.leaderElection.workload }}{{ end -}}
{{- toYaml $rules }}
{{- end }}

{{- /* files/kubeloop/rbac.yaml, or a failure saying how to make it. */ -}}
{{- define "sample-operator.generatedRbac" -}}
{{- $file := .Files.Get "files/kubeloop/rbac.yaml" -}}
{{- if not $file }}{{ fail "files/kubeloop/rbac.yaml is missing: build the operator (./mvnw process-classes), which writes it from the code" }}{{ end -}}
{{- $file }}
{{- end }}

{{- /* files/kubeloop/webhooks.yaml, or a failure saying how to make it. */ -}}
{{- define "sample-operator.generatedWebhooks" -}}
{{- $file := .Files.Get "files/kubeloop/webhooks.yaml" -}}
{{- if not $file }}{{ fail "files/kubeloop/webhooks.yaml is missing: build the operator (./mvnw process-classes), which writes it from the code" }}{{ end -}}
{{- $file }}
{{- end }}
