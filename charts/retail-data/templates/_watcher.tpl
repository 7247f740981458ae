{{/*
The watcher's database, queue and webhook key: where each comes from. Exactly one database:
the in-chart PostgreSQL (postgresql.enabled) or an external one (watcher.database.url or
watcher.database.existingSecret). values.schema.json refuses the other shapes before rendering;
the checks here repeat that with a sentence an operator can act on.
*/}}

{{/* "internal", "url" or "existingSecret"; fails on none or several. */}}
{{- define "retail-data.watcherDatabase" -}}
{{- $database := .Values.watcher.database }}
{{- $shapes := list }}
{{- if .Values.postgresql.enabled }}{{ $shapes = append $shapes "internal" }}{{ end }}
{{- if $database.url }}{{ $shapes = append $shapes "url" }}{{ end }}
{{- if $database.existingSecret }}{{ $shapes = append $shapes "existingSecret" }}{{ end }}
{{- if ne (len $shapes) 1 }}
{{- fail "the watcher needs exactly one PostgreSQL: postgresql.enabled=true (in-chart) or watcher.database.url or watcher.database.existingSecret (external)" }}
{{- end }}
{{- first $shapes }}
{{- end }}

{{/* The in-chart PostgreSQL's URL, without the password: node-postgres takes it from PGPASSWORD. */}}
{{- define "retail-data.postgresqlUrl" -}}
{{- $pg := .Values.postgresql }}
{{- printf "postgresql://%s@%s:5432/%s" $pg.auth.username (include "retail-data.componentName" (list . "postgresql")) $pg.auth.database }}
{{- end }}

{{/* secretKeyRef of the in-chart PostgreSQL's password (the generated Secret or the operator's). */}}
{{- define "retail-data.postgresqlPasswordRef" -}}
{{- $auth := .Values.postgresql.auth }}
{{- if $auth.existingSecret -}}
{ name: {{ $auth.existingSecret | quote }}, key: {{ $auth.existingSecretKey | quote }} }
{{- else -}}
{ name: {{ include "retail-data.componentName" (list . "postgresql") | quote }}, key: password }
{{- end }}
{{- end }}

{{/*
"true" when the watcher's queues need a Redis of their own: the ledger is a Redis Cluster, where
BullMQ cannot keep a queue's keys in one slot (watcher/src/queue/from-env.ts refuses it too).
*/}}
{{- define "retail-data.watcherQueueRequired" -}}
{{- if and (include "retail-data.ledgerOnCluster" .) (not .Values.watcher.queue.redisUrl) (not .Values.watcher.queue.existingSecret) }}true{{ end }}
{{- end }}

{{/* The watcher's secret environment from Secrets it does not own (env entries). */}}
{{- define "retail-data.watcherSecretEnv" -}}
{{- $watcher := .Values.watcher }}
{{- $database := include "retail-data.watcherDatabase" . }}
{{- if eq $database "existingSecret" }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef: { name: {{ $watcher.database.existingSecret | quote }}, key: {{ $watcher.database.existingSecretKey | quote }} }
{{- else if eq $database "internal" }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef: {{ include "retail-data.postgresqlPasswordRef" . }}
{{- end }}
{{- with $watcher.queue.existingSecret }}
- name: QUEUE_REDIS_URL
  valueFrom:
    secretKeyRef: { name: {{ . | quote }}, key: {{ $watcher.queue.existingSecretKey | quote }} }
{{- end }}
{{- with $watcher.webhooks.secretKey.existingSecret }}
- name: WEBHOOK_SECRET_KEY
  valueFrom:
    secretKeyRef: { name: {{ . | quote }}, key: {{ $watcher.webhooks.secretKey.existingSecretKey | quote }} }
{{- end }}
{{- with $watcher.operatorWebhook.existingSecret }}
- name: OPERATOR_WEBHOOK_SECRET
  valueFrom:
    secretKeyRef: { name: {{ . | quote }}, key: {{ $watcher.operatorWebhook.existingSecretKey | quote }} }
{{- end }}
{{- with .Values.metering.billingExport }}
{{- if and .url .existingSecret }}
- name: BILLING_EXPORT_SECRET
  valueFrom:
    secretKeyRef: { name: {{ .existingSecret | quote }}, key: {{ .existingSecretKey | quote }} }
{{- if .authorizationKey }}
- name: BILLING_EXPORT_AUTHORIZATION
  valueFrom:
    secretKeyRef: { name: {{ .existingSecret | quote }}, key: {{ .authorizationKey | quote }} }
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/* The watcher's own Secret data (base64), what its existing Secrets do not hold. */}}
{{- define "retail-data.watcherSecretData" -}}
{{- $watcher := .Values.watcher }}
{{- if include "retail-data.watcherQueueRequired" . }}
{{- fail "the ledger is a Redis Cluster (redis.external.ledgerClusterNodes): set watcher.queue.redisUrl or watcher.queue.existingSecret to a single-node, non-evicting Redis for the watcher's queues" }}
{{- end }}
{{- $database := include "retail-data.watcherDatabase" . }}
{{- if eq $database "url" }}
DATABASE_URL: {{ $watcher.database.url | b64enc | quote }}
{{- else if eq $database "internal" }}
DATABASE_URL: {{ include "retail-data.postgresqlUrl" . | b64enc | quote }}
{{- end }}
{{- if and $watcher.queue.redisUrl (not $watcher.queue.existingSecret) }}
QUEUE_REDIS_URL: {{ $watcher.queue.redisUrl | b64enc | quote }}
{{- end }}
{{- if and $watcher.operatorWebhook.secret (not $watcher.operatorWebhook.existingSecret) }}
OPERATOR_WEBHOOK_SECRET: {{ $watcher.operatorWebhook.secret | b64enc | quote }}
{{- end }}
{{- with $watcher.webhooks.secretKey }}
{{- if not .existingSecret }}
{{- if .value }}
WEBHOOK_SECRET_KEY: {{ .value | b64enc | quote }}
{{- else }}
WEBHOOK_SECRET_KEY: {{ include "retail-data.generatedSecret" (list $ (include "retail-data.componentName" (list $ "watcher")) "WEBHOOK_SECRET_KEY" "bytes32") | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The watcher's egress rules. It sends requests to URLs its users choose (webhooks), so besides what
it needs inside the cluster (DNS, the core, the in-chart ledger Redis and PostgreSQL) it may reach
only public addresses on watcher.webhooks.egressPorts: every private, loopback, link-local and
CGNAT range is excepted unless watcher.webhooks.allowPrivateTargets (the same switch that lets the
watcher's own URL check accept them). External PostgreSQL/Redis/collectors: networkPolicy.extraEgress.
*/}}
{{- define "retail-data.watcherEgress" -}}
{{- $watcher := .Values.watcher }}
- ports:
    - { port: 53, protocol: UDP }
    - { port: 53, protocol: TCP }
- to:
    - podSelector:
        matchLabels:
          {{- include "retail-data.selectorLabels" (list . "core") | nindent 10 }}
  ports:
    - { port: {{ .Values.core.port }}, protocol: TCP }
{{- if eq .Values.redis.mode "internal" }}
- to:
    - podSelector:
        matchLabels:
          {{- include "retail-data.selectorLabels" (list . "redis-ledger") | nindent 10 }}
  ports:
    - { port: 6379, protocol: TCP }
{{- end }}
{{- if .Values.postgresql.enabled }}
- to:
    - podSelector:
        matchLabels:
          {{- include "retail-data.selectorLabels" (list . "postgresql") | nindent 10 }}
  ports:
    - { port: 5432, protocol: TCP }
{{- end }}
- to:
    {{- if $watcher.webhooks.allowPrivateTargets }}
    - ipBlock: { cidr: 0.0.0.0/0 }
    - ipBlock: { cidr: "::/0" }
    {{- else }}
    - ipBlock:
        cidr: 0.0.0.0/0
        except: [10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16, 100.64.0.0/10, 127.0.0.0/8]
    - ipBlock:
        cidr: "::/0"
        # Loopback, unique-local, link-local, IPv4-mapped and NAT64 (both can carry a private IPv4).
        except: ["::1/128", "fc00::/7", "fe80::/10", "::ffff:0:0/96", "64:ff9b::/96"]
    {{- end }}
  ports:
    {{- range $watcher.webhooks.egressPorts }}
    - { port: {{ . }}, protocol: TCP }
    {{- end }}
{{- with $watcher.networkPolicy.extraEgress }}
{{ toYaml . }}
{{- end }}
{{- end }}
