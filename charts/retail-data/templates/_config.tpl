{{/*
Each deployable's plain environment (its ConfigMap), one place per deployable. Empty values are
left out so the program's own default applies. Args: (list $ "rest").
*/}}
{{- define "retail-data.config" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $values := index $root.Values $name }}
{{- $redis := $root.Values.redis }}
{{- $external := eq $redis.mode "external" }}
{{- $env := dict }}
{{- if eq $name "core" }}
{{- $_ := set $env "LOG_LEVEL" $root.Values.logLevel }}
{{- $_ := set $env "GRPC_HOST" $values.config.grpcHost }}
{{- $_ := set $env "GRPC_PORT" $values.port }}
{{- $_ := set $env "MARKETPLACE_ORIGIN" $values.config.marketplaceOrigin }}
{{- $_ := set $env "UPSTREAM_TIMEOUT_MS" $values.config.upstreamTimeoutMs }}
{{- else }}
{{- $_ := set $env "HOST" $values.config.host }}
{{- $_ := set $env "PORT" $values.port }}
{{- if $external }}{{ $_ := set $env "LEDGER_REDIS_CLUSTER" (join "," $redis.external.ledgerClusterNodes) }}{{ end }}
{{- $_ := set $env "METERING_PLANS" $root.Values.metering.plans }}
{{- if eq $name "console" }}
{{- $_ := set $env "CONSOLE_SIGNUP_MODE" $values.config.signupMode }}
{{- $_ := set $env "CONSOLE_SECURE_COOKIES" $values.config.secureCookies }}
{{- else }}
{{- $_ := set $env "CORE_ADDRESS" (printf "%s:%v" (include "retail-data.componentName" (list $root "core")) $root.Values.core.port) }}
{{- $_ := set $env "CORE_DEADLINE_MS" $values.config.coreDeadlineMs }}
{{- $_ := set $env "CORS_ORIGINS" $values.config.corsOrigins }}
{{- if eq $name "graphql" }}
{{- $_ := set $env "GRAPHQL_MAX_OPERATIONS" $values.config.maxOperations }}
{{- $_ := set $env "GRAPHQL_MAX_DEPTH" $values.config.maxDepth }}
{{- $_ := set $env "GRAPHQL_BODY_LIMIT_BYTES" $values.config.bodyLimitBytes }}
{{- else if eq $name "mcp" }}
{{- $_ := set $env "MCP_BODY_LIMIT_BYTES" $values.config.bodyLimitBytes }}
{{- end }}
{{- end }}
{{- end }}
{{- with $root.Values.telemetry }}
{{- $_ := set $env "OTEL_SERVICE_NAME" (printf "retail-%s" $name) }}
{{- $_ := set $env "OTEL_EXPORTER_OTLP_ENDPOINT" .otlpEndpoint }}
{{- $_ := set $env "OTEL_TRACES_EXPORTER" .tracesExporter }}
{{- $_ := set $env "OTEL_METRICS_EXPORTER" .metricsExporter }}
{{- if eq .metricsExporter "prometheus" }}{{ $_ := set $env "OTEL_EXPORTER_PROMETHEUS_PORT" .prometheusPort }}{{ end }}
{{- end }}
{{- range $key, $value := $env }}
{{- if or (kindIs "bool" $value) (ne (toString $value) "") }}
{{ $key }}: {{ toString $value | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Each deployable's own secret environment (its Secret), base64-encoded. Args: (list $ "core"). */}}
{{- define "retail-data.secretData" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- if and (eq $name "core") $root.Values.core.secret.reviewsSessionCookie }}
REVIEWS_SESSION_COOKIE: {{ $root.Values.core.secret.reviewsSessionCookie | b64enc | quote }}
{{- end }}
{{- if and (eq $name "console") $root.Values.console.inviteCodes }}
CONSOLE_INVITE_CODES: {{ $root.Values.console.inviteCodes | b64enc | quote }}
{{- end }}
{{- if and (eq $name "console") (not $root.Values.console.sessionSecret.existingSecret) }}
{{- if $root.Values.console.sessionSecret.value }}
CONSOLE_SESSION_SECRET: {{ $root.Values.console.sessionSecret.value | b64enc | quote }}
{{- else }}
CONSOLE_SESSION_SECRET: {{ include "retail-data.generatedSecret" (list $root (include "retail-data.componentName" (list $root "console")) "CONSOLE_SESSION_SECRET") | quote }}
{{- end }}
{{- end }}
{{- end }}
