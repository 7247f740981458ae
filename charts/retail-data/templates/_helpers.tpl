{{/*
Names, labels and the facts every template shares. The list of deployables and the routes are
declared here once; the templates range over them.
*/}}

{{- define "retail-data.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "retail-data.fullname" -}}
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

{{/* "<fullname>-<component>", e.g. myrelease-retail-data-core. Args: (list $ "core"). */}}
{{- define "retail-data.componentName" -}}
{{- $root := index . 0 }}
{{- printf "%s-%s" (include "retail-data.fullname" $root | trunc 50 | trimSuffix "-") (index . 1) }}
{{- end }}

{{- define "retail-data.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "retail-data.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "retail-data.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version | replace "+" "_" }}
{{ include "retail-data.selectorLabels" . }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
app.kubernetes.io/part-of: retail-data
{{- end }}

{{/*
The six deployables and what distinguishes them; everything else comes from .Values.<name>.
callsCore / callsWatcher: it is a gRPC client of the core / the watcher (gets its address and the
service token; the server's NetworkPolicy admits it). probes: grpc (grpc.health.v1 on its port) or
http (GET /healthz and /readyz on the port named http: its own port, or for a gRPC server that
probes over HTTP, <name>.healthPort; the watcher does, since a worker-only replica serves no gRPC). ledger / cache: the Redis role it uses;
postgresql: it uses the in-chart PostgreSQL. The watcher charges units on the ledger and keeps its
job queues there unless watcher.queue names another Redis.
*/}}
{{- define "retail-data.deployables" -}}
core: { protocol: grpc, probes: grpc, callsCore: false, callsWatcher: false, ledger: false, cache: true, postgresql: false }
rest: { protocol: http, probes: http, callsCore: true, callsWatcher: true, ledger: true, cache: false, postgresql: false }
graphql: { protocol: http, probes: http, callsCore: true, callsWatcher: true, ledger: true, cache: false, postgresql: false }
mcp: { protocol: http, probes: http, callsCore: true, callsWatcher: true, ledger: true, cache: false, postgresql: false }
console: { protocol: http, probes: http, callsCore: false, callsWatcher: true, ledger: true, cache: false, postgresql: false }
watcher: { protocol: grpc, probes: http, callsCore: true, callsWatcher: false, ledger: true, cache: true, postgresql: true }
{{- end }}

{{/* Ordered names, since dict iteration order is alphabetical. */}}
{{- define "retail-data.deployableNames" -}}
core rest graphql mcp console watcher
{{- end }}

{{/* The trait that marks a gRPC server's clients: core → callsCore, watcher → callsWatcher. */}}
{{- define "retail-data.clientTrait" -}}
{{- printf "calls%s" (title .) }}
{{- end }}

{{/* "<Service>:<port>" of a gRPC deployable, as its clients dial it. Args: (list $ "core"). */}}
{{- define "retail-data.grpcAddress" -}}
{{- $root := index . 0 }}
{{- printf "%s:%v" (include "retail-data.componentName" .) (index $root.Values (index . 1)).port }}
{{- end }}

{{/* The public routes (Ingress and HTTPRoute): path, match type, deployable. The REST deployment also
    serves the pages (landing page, API reference, docs) and answers for the API's health and readiness. */}}
{{- define "retail-data.routes" -}}
- { path: /, type: Exact, component: rest }
- { path: /favicon.ico, type: Exact, component: rest }
- { path: /healthz, type: Exact, component: rest }
- { path: /readyz, type: Exact, component: rest }
- { path: /docs, type: Prefix, component: rest }
- { path: /api/docs, type: Prefix, component: rest }
- { path: /api/retail, type: Prefix, component: rest }
- { path: /api/openapi.json, type: Exact, component: rest }
- { path: /api/account, type: Prefix, component: rest }
- { path: /api/status, type: Exact, component: rest }
- { path: /status, type: Exact, component: rest }
- { path: /api/graphql, type: Prefix, component: graphql }
- { path: /api/mcp, type: Prefix, component: mcp }
- { path: /console, type: Prefix, component: console }
{{- end }}

{{/* Image reference of a deployable. Args: (list $ "core"). */}}
{{- define "retail-data.image" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $image := (index $root.Values $name).image }}
{{- $repository := $image.repository | default (printf "%s/%s" $root.Values.image.repositoryPrefix $name) }}
{{- $tag := $image.tag | default $root.Values.image.tag | default $root.Chart.AppVersion }}
{{- printf "%s:%s" $repository $tag }}
{{- end }}

{{- define "retail-data.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "retail-data.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* Secret name and key of the service token, the Redis URLs and the console session secret. */}}
{{- define "retail-data.serviceTokenRef" -}}
{{- if .Values.serviceToken.existingSecret -}}
{ name: {{ .Values.serviceToken.existingSecret | quote }}, key: {{ .Values.serviceToken.existingSecretKey | quote }} }
{{- else -}}
{ name: {{ include "retail-data.componentName" (list . "service-token") | quote }}, key: service-token }
{{- end }}
{{- end }}

{{- define "retail-data.redisUrlRef" -}}
{{- $root := index . 0 }}
{{- $role := index . 1 }}
{{- $external := $root.Values.redis.external }}
{{- if and (eq $root.Values.redis.mode "external") $external.existingSecret -}}
{ name: {{ $external.existingSecret | quote }}, key: {{ index $external (printf "%sUrlKey" $role) | quote }} }
{{- else -}}
{ name: {{ include "retail-data.componentName" (list $root "redis") | quote }}, key: {{ printf "%s-url" $role }} }
{{- end }}
{{- end }}

{{- define "retail-data.sessionSecretRef" -}}
{ name: {{ .Values.console.sessionSecret.existingSecret | quote }}, key: {{ .Values.console.sessionSecret.existingSecretKey | quote }} }
{{- end }}

{{/* secretKeyRef of the core's proxy list in the operator's existing Secret. */}}
{{- define "retail-data.upstreamProxiesRef" -}}
{ name: {{ .Values.core.secret.upstreamProxies.existingSecret | quote }}, key: {{ .Values.core.secret.upstreamProxies.existingSecretKey | quote }} }
{{- end }}

{{/*
A generated secret that survives upgrades: the value already in the cluster when there is one
(lookup answers nothing under `helm template`), else a new random one, base64-encoded for a Secret's
data. Args: (list $ secretName key), or (list $ secretName key "bytes32") for base64 of 32 random
bytes (a key, e.g. the watcher's WEBHOOK_SECRET_KEY) instead of 48 letters and digits.
One value per render: the Secret and the pods' checksum/secret annotation include this twice, and
two different random values would make the first upgrade after an install roll the pods for nothing.
*/}}
{{- define "retail-data.generatedSecret" -}}
{{- $root := index . 0 }}
{{- if not (hasKey $root "generatedSecrets") }}{{ $_ := set $root "generatedSecrets" dict }}{{ end }}
{{- $id := printf "%s/%s" (index . 1) (index . 2) }}
{{- if not (hasKey $root.generatedSecrets $id) }}
{{- $existing := lookup "v1" "Secret" $root.Release.Namespace (index . 1) }}
{{- $value := "" }}
{{- if and $existing $existing.data (hasKey $existing.data (index . 2)) }}
{{- $value = index $existing.data (index . 2) }}
{{- else if and (gt (len .) 3) (eq (index . 3) "bytes32") }}
{{- $value = randBytes 32 | b64enc }}
{{- else }}
{{- $value = randAlphaNum 48 | b64enc }}
{{- end }}
{{- $_ := set $root.generatedSecrets $id $value }}
{{- end }}
{{- index $root.generatedSecrets $id }}
{{- end }}

{{/* Replicas a deployable runs at least: for deciding whether a PDB makes sense. Args: (list $ "core"). */}}
{{- define "retail-data.minReplicas" -}}
{{- $values := index (index . 0).Values (index . 1) }}
{{- if $values.autoscaling.enabled }}{{ $values.autoscaling.minReplicas }}{{ else }}{{ $values.replicaCount }}{{ end }}
{{- end }}

{{/* "true" when the ledger is an external Redis Cluster given by its startup nodes, else empty. */}}
{{- define "retail-data.ledgerOnCluster" -}}
{{- if and (eq .Values.redis.mode "external") .Values.redis.external.ledgerClusterNodes }}true{{ end }}
{{- end }}
