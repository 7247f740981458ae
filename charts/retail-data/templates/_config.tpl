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
{{- $env := dict "LOG_LEVEL" $root.Values.logLevel }}
{{- if eq $name "core" }}
{{- $_ := set $env "GRPC_HOST" $values.config.grpcHost }}
{{- $_ := set $env "GRPC_PORT" $values.port }}
{{- $_ := set $env "MARKETPLACE_ORIGIN" $values.config.marketplaceOrigin }}
{{- $_ := set $env "UPSTREAM_TIMEOUT_MS" $values.config.upstreamTimeoutMs }}
{{- if and $external $redis.external.cacheCluster }}{{ $_ := set $env "CACHE_REDIS_CLUSTER" "true" }}{{ end }}
{{- else }}
{{- $_ := set $env "HOST" $values.config.host }}
{{- $_ := set $env "PORT" $values.port }}
{{- if and $external $redis.external.ledgerCluster }}{{ $_ := set $env "LEDGER_REDIS_CLUSTER" "true" }}{{ end }}
{{- if eq $name "console" }}
{{- $_ := set $env "CONSOLE_SIGNUP_MODE" $values.config.signupMode }}
{{- $_ := set $env "CONSOLE_SECURE_COOKIES" $values.config.secureCookies }}
{{- else }}
{{- $_ := set $env "CORE_ADDRESS" (printf "%s:%v" (include "retail-data.componentName" (list $root "core")) $root.Values.core.port) }}
{{- $_ := set $env "CORE_DEADLINE_MS" $values.config.coreDeadlineMs }}
{{- $_ := set $env "CORS_ORIGINS" $values.config.corsOrigins }}
{{- end }}
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
{{- if and (eq $name "console") (not $root.Values.console.sessionSecret.existingSecret) }}
{{- if $root.Values.console.sessionSecret.value }}
CONSOLE_SESSION_SECRET: {{ $root.Values.console.sessionSecret.value | b64enc | quote }}
{{- else }}
CONSOLE_SESSION_SECRET: {{ include "retail-data.generatedSecret" (list $root (include "retail-data.componentName" (list $root "console")) "CONSOLE_SESSION_SECRET") | quote }}
{{- end }}
{{- end }}
{{- end }}
