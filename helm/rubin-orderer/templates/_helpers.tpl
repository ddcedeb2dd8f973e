{{/* Names and labels shared by every template. */}}

{{- define "rubin-orderer.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* A node's resource name: <fullname>-<node name>. Argument: dict root node. */}}
{{- define "rubin-orderer.nodeName" -}}
{{- printf "%s-%s" (include "rubin-orderer.fullname" .root) .node.name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "rubin-orderer.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "rubin-orderer.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Selector of one node. Argument: dict root node. */}}
{{- define "rubin-orderer.nodeSelectorLabels" -}}
{{ include "rubin-orderer.selectorLabels" .root }}
rubin-orderer/node: {{ .node.name }}
{{- end -}}

{{- define "rubin-orderer.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* f = floor((n-1)/3) for the configured consenters. */}}
{{- define "rubin-orderer.f" -}}
{{- div (sub (len .Values.nodes) 1) 3 -}}
{{- end -}}
