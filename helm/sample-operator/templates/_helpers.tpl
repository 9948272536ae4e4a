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

{{/*
What the operator does to Websites and the objects it owns: the rules of its Roles (or, with
watchAllNamespaces, its ClusterRole). Exactly what the code uses: server-side apply is a patch (and
a create for a new object), never an update; the only delete is Kubeloop's pruning of the <name>-tls
ConfigMap when a Website stops serving HTTPS (Services and Deployments go with their Website through
the garbage collector); Secrets only with tlsSecrets.watch.
*/}}
{{- define "sample-operator.workloadRules" -}}
- apiGroups: ["sample.kubeloop.dev"]
  resources: ["websites"]
  verbs: ["get", "list", "watch", "patch", "update"]
- apiGroups: ["sample.kubeloop.dev"]
  resources: ["websites/status"]
  verbs: ["get", "patch", "update"]
- apiGroups: ["sample.kubeloop.dev"]
  resources: ["websites/finalizers"]
  verbs: ["update"]
# owned objects: server-side apply is a patch (and a create for a new object); Services and
# Deployments go with their Website through the garbage collector
- apiGroups: [""]
  resources: ["services"]
  verbs: ["get", "list", "watch", "create", "patch"]
# ConfigMaps also delete: the <name>-tls ConfigMap is pruned when its Website stops serving HTTPS
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get", "list", "watch", "create", "patch", "delete"]
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list", "watch", "create", "patch"]
{{- if .Values.tlsSecrets.watch }}
# tlsSecrets.watch: the TLS Secrets Websites name (spec.tls.secretName), watched metadata-only, never
# read, written or created; RBAC cannot say "metadata only", so list/watch is the least it takes
# (and lets the ServiceAccount read their data: docs/security.md)
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["list", "watch"]
{{- end }}
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
{{- end }}
