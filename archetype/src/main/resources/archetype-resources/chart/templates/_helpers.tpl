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

{{/* The CRD of the kind the webhook configurations call (webhooks.kind), with a message naming the value when files/ lacks it. */}}
{{- define "operator.webhookCrd" -}}
{{- $kind := .Values.webhooks.kind -}}
{{- $kinds := list -}}
{{- $found := "" -}}
{{- range (include "operator.crds" . | fromYaml).items }}
{{- $kinds = append $kinds .spec.names.kind -}}
{{- if eq .spec.names.kind $kind }}{{ $found = toYaml . }}{{ end -}}
{{- end }}
{{- if not $found }}
{{- fail (printf "webhooks.kind %s names no CRD in files/ (%s): set it to the kind of the validator and defaulter" $kind (join ", " $kinds)) }}
{{- end }}
{{- $found }}
{{- end }}

{{/* The storage version of a CRD (the argument). */}}
{{- define "operator.version" -}}
{{- range .spec.versions }}{{ if .storage }}{{ .name }}{{ end }}{{ end }}
{{- end }}

{{/* Where Kubeloop serves a webhook of the custom resource: /<validate|mutate>-<group with dashes>-<version>-<kind>. */}}
{{- define "operator.webhookPath" -}}
{{- $crd := include "operator.webhookCrd" .root | fromYaml -}}
/{{ .type }}-{{ $crd.spec.group | replace "." "-" }}-{{ include "operator.version" $crd }}-{{ $crd.spec.names.kind | lower }}
{{- end }}

{{/*
What the operator does, and nothing more: each of its custom resources (read, status, and the finalizers
subresource that an owner reference with blockOwnerDeletion needs), the ConfigMaps it owns
(server-side apply is a patch, or a create; Kubernetes' garbage collector deletes them with their
owner, so no delete), and Events.
*/}}
{{- define "operator.rules" -}}
{{- range (include "operator.crds" . | fromYaml).items }}
- apiGroups: [{{ .spec.group | quote }}]
  resources: [{{ .spec.names.plural | quote }}]
  verbs: ["get", "list", "watch", "patch", "update"]
- apiGroups: [{{ .spec.group | quote }}]
  resources: [{{ printf "%s/status" .spec.names.plural | quote }}]
  verbs: ["get", "patch", "update"]
- apiGroups: [{{ .spec.group | quote }}]
  resources: [{{ printf "%s/finalizers" .spec.names.plural | quote }}]
  verbs: ["update"]
{{- end }}
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get", "list", "watch", "create", "patch"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
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
