{{/*
Each deployable's plain environment (its ConfigMap), one place per deployable. Empty values are
left out so the program's own default applies. Args: (list $ "rest").
*/}}
{{- define "retail-data.config" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $values := index $root.Values $name }}
{{- $traits := index (include "retail-data.deployables" $root | fromYaml) $name }}
{{- $redis := $root.Values.redis }}
{{- $external := eq $redis.mode "external" }}
{{- $env := dict }}
{{- if eq $name "core" }}
{{- $_ := set $env "LOG_LEVEL" $root.Values.logLevel }}
{{- $_ := set $env "GRPC_HOST" $values.config.grpcHost }}
{{- $_ := set $env "GRPC_PORT" $values.port }}
{{- $_ := set $env "MARKETPLACE_ORIGIN" $values.config.marketplaceOrigin }}
{{- $_ := set $env "UPSTREAM_TIMEOUT_MS" $values.config.upstreamTimeoutMs }}
{{- $_ := set $env "UPSTREAM_RETRY_ATTEMPTS" $values.config.retryAttempts }}
{{- $_ := set $env "UPSTREAM_RETRY_BASE_MS" $values.config.retryBaseMs }}
{{- $_ := set $env "UPSTREAM_RETRY_MAX_MS" $values.config.retryMaxMs }}
{{- $_ := set $env "UPSTREAM_RETRY_MIN_ATTEMPT_MS" $values.config.retryMinAttemptMs }}
{{- $_ := set $env "UPSTREAM_BREAKER_FAILURES" $values.config.breakerFailures }}
{{- $_ := set $env "UPSTREAM_BREAKER_OPEN_MS" $values.config.breakerOpenMs }}
{{- $_ := set $env "UPSTREAM_HOST_CONCURRENCY" $values.config.hostConcurrency }}
{{- $_ := set $env "UPSTREAM_HOST_RATE" $values.config.hostRate }}
{{- $_ := set $env "UPSTREAM_HOST_BURST" $values.config.hostBurst }}
{{- $_ := set $env "CACHE_TTL_SECONDS" $values.config.cacheTtlSeconds }}
{{- $_ := set $env "CACHE_NEGATIVE_TTL_SECONDS" $values.config.cacheNegativeTtlSeconds }}
{{- $_ := set $env "CACHE_STALE_SECONDS" $values.config.cacheStaleSeconds }}
{{- $_ := set $env "PARSE_WORKERS" $values.config.parseWorkers }}
{{- $_ := set $env "BATCH_CONCURRENCY" $values.config.batchConcurrency }}
{{- $_ := set $env "UPSTREAM_STARTUP_PROBE" $values.config.startupProbe }}
{{- $_ := set $env "PAGE_ARCHIVE_DAYS" $root.Values.pageArchive.days }}
{{- $_ := set $env "PAGE_ARCHIVE_SAMPLE" $root.Values.pageArchive.sample }}
{{- $_ := set $env "PAGE_ARCHIVE_STREAM_MAX" $root.Values.pageArchive.streamMax }}
{{- else if eq $name "watcher" }}
{{- $_ := set $env "GRPC_HOST" $values.config.grpcHost }}
{{- $_ := set $env "GRPC_PORT" $values.port }}
{{- /* Its probes (/healthz, /readyz) listen on PORT in every role. */}}
{{- if eq (int $values.healthPort) (int $values.port) }}{{ fail "watcher.healthPort must differ from watcher.port (the probes' HTTP server and the gRPC server cannot share a port)" }}{{ end }}
{{- $_ := set $env "PORT" $values.healthPort }}
{{- $_ := set $env "CORE_ADDRESS" (include "retail-data.grpcAddress" (list $root "core")) }}
{{- $_ := set $env "CORE_DEADLINE_MS" $values.config.coreDeadlineMs }}
{{- /* It charges units on the gateways' ledger, with their plans. */}}
{{- if $external }}{{ $_ := set $env "LEDGER_REDIS_CLUSTER" (join "," $redis.external.ledgerClusterNodes) }}{{ end }}
{{- $_ := set $env "METERING_PLANS" $root.Values.metering.plans }}
{{- $_ := set $env "WATCHER_REFRESH_CONCURRENCY" $values.config.refreshConcurrency }}
{{- $_ := set $env "WATCHER_DELIVERY_CONCURRENCY" $values.config.deliveryConcurrency }}
{{- $_ := set $env "SNAPSHOT_RETENTION_DAYS" $values.config.snapshotRetentionDays }}
{{- $_ := set $env "PAGE_ARCHIVE_DAYS" $root.Values.pageArchive.days }}
{{- $_ := set $env "JOB_CONCURRENCY" $values.config.jobConcurrency }}
{{- $_ := set $env "JOB_ITEM_CONCURRENCY" $values.config.jobItemConcurrency }}
{{- $_ := set $env "JOB_CHUNK_SIZE" $values.config.jobChunkSize }}
{{- $_ := set $env "JOB_RESULT_RETENTION_DAYS" $values.config.jobResultRetentionDays }}
{{- $_ := set $env "REPARSE_CONCURRENCY" $values.config.reparseConcurrency }}
{{- $_ := set $env "WEBHOOK_ALLOW_PRIVATE_TARGETS" $values.webhooks.allowPrivateTargets }}
{{- $_ := set $env "WEBHOOK_TIMEOUT_MS" $values.webhooks.timeoutMs }}
{{- $_ := set $env "OPERATOR_WEBHOOK_URL" $values.operatorWebhook.url }}
{{- with $root.Values.metering.billingExport }}
{{- if .url }}
{{- if not .existingSecret }}{{ fail "metering.billingExport.url needs metering.billingExport.existingSecret: the Secret holding its whsec_ signing secret" }}{{ end }}
{{- if not $root.Values.metering.database.existingSecret }}{{ fail "metering.billingExport.url needs the ledger's record: set metering.database.existingSecret" }}{{ end }}
{{- $_ := set $env "BILLING_EXPORT_URL" .url }}
{{- $_ := set $env "BILLING_EXPORT_BATCH_SIZE" .batchSize }}
{{- $_ := set $env "BILLING_EXPORT_INTERVAL_MS" .intervalMs }}
{{- $_ := set $env "BILLING_EXPORT_RETRY_MAX_MS" .retryMaxMs }}
{{- $_ := set $env "BILLING_EXPORT_SOURCE" .source }}
{{- $_ := set $env "BILLING_EXPORT_EVENT_TYPE" .eventType }}
{{- $_ := set $env "BILLING_EXPORT_START" .start }}
{{- end }}
{{- end }}
{{- else }}
{{- $_ := set $env "HOST" $values.config.host }}
{{- $_ := set $env "PORT" $values.port }}
{{- if $external }}{{ $_ := set $env "LEDGER_REDIS_CLUSTER" (join "," $redis.external.ledgerClusterNodes) }}{{ end }}
{{- $_ := set $env "METERING_PLANS" $root.Values.metering.plans }}
{{- if $traits.callsWatcher }}{{ $_ := set $env "WATCHER_ADDRESS" (include "retail-data.grpcAddress" (list $root "watcher")) }}{{ end }}
{{- if eq $name "console" }}
{{- $_ := set $env "CONSOLE_SIGNUP_MODE" $values.config.signupMode }}
{{- $_ := set $env "CONSOLE_SECURE_COOKIES" $values.config.secureCookies }}
{{- else }}
{{- $_ := set $env "CORE_ADDRESS" (include "retail-data.grpcAddress" (list $root "core")) }}
{{- $_ := set $env "CORE_DEADLINE_MS" $values.config.coreDeadlineMs }}
{{- $_ := set $env "CORE_BATCH_DEADLINE_MS" $values.config.coreBatchDeadlineMs }}
{{- $_ := set $env "CORE_COALESCE" $values.config.coreCoalesce }}
{{- $_ := set $env "CORS_ORIGINS" $values.config.corsOrigins }}
{{- if eq $name "graphql" }}
{{- $_ := set $env "GRAPHQL_MAX_OPERATIONS" $values.config.maxOperations }}
{{- $_ := set $env "GRAPHQL_MAX_DEPTH" $values.config.maxDepth }}
{{- $_ := set $env "GRAPHQL_BODY_LIMIT_BYTES" $values.config.bodyLimitBytes }}
{{- else if eq $name "mcp" }}
{{- $_ := set $env "MCP_BODY_LIMIT_BYTES" $values.config.bodyLimitBytes }}
{{- $_ := set $env "MCP_TOOLSETS" $values.config.toolsets }}
{{- $_ := set $env "MCP_OUTPUT_SCHEMAS" $values.config.outputSchemas }}
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
{{- /* Numbers from a values file arrive as float64: print whole ones as integers, never as 3.6e+06. */}}
{{- if and (kindIs "float64" $value) (eq $value (floor $value)) }}{{ $value = int64 $value }}{{ end }}
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
{{- with $root.Values.core.secret.upstreamProxies }}
{{- if and (eq $name "core") .value (not .existingSecret) }}
UPSTREAM_PROXIES: {{ .value | b64enc | quote }}
{{- end }}
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
{{- if eq $name "watcher" }}
{{- include "retail-data.watcherSecretData" $root }}
{{- end }}
{{- end }}
