{{/*
The one Deployment shape of every deployable. Args: (list $ "rest"). What differs between them
comes from retail-data.deployables (protocol, which secrets it needs) and .Values.<name>.
*/}}
{{- define "retail-data.deployment" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $values := index $root.Values $name }}
{{- $traits := index (include "retail-data.deployables" $root | fromYaml) $name }}
{{- $pods := $root.Values.pods }}
{{- $fullName := include "retail-data.componentName" (list $root $name) }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $fullName }}
  labels:
    {{- include "retail-data.labels" (list $root $name) | nindent 4 }}
spec:
  {{- if not $values.autoscaling.enabled }}
  replicas: {{ $values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "retail-data.selectorLabels" (list $root $name) | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "retail-data.labels" (list $root $name) | nindent 8 }}
      annotations:
        {{- /* Roll the pods when their configuration or a Secret the chart writes for them changes
        (values of an existingSecret are not the chart's to see: those need a rollout restart). */}}
        checksum/config: {{ include "retail-data.config" (list $root $name) | sha256sum }}
        checksum/secret: {{ list (include "retail-data.secretData" (list $root $name)) $root.Values.serviceToken.value $root.Values.redis.mode $root.Values.redis.external | toJson | sha256sum }}
        {{- with $values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "retail-data.serviceAccountName" $root }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ $pods.terminationGracePeriodSeconds }}
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- range . }}
        - name: {{ . }}
        {{- end }}
      {{- end }}
      securityContext:
        {{- toYaml $pods.securityContext | nindent 8 }}
      {{- if $pods.topologySpread.enabled }}
      topologySpreadConstraints:
        {{- range $pods.topologySpread.topologyKeys }}
        - maxSkew: {{ $pods.topologySpread.maxSkew }}
          topologyKey: {{ . }}
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "retail-data.selectorLabels" (list $root $name) | nindent 14 }}
        {{- end }}
      {{- end }}
      containers:
        - name: {{ $name }}
          image: {{ include "retail-data.image" (list $root $name) | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          securityContext:
            {{- toYaml $pods.containerSecurityContext | nindent 12 }}
          ports:
            - name: {{ $traits.protocol }}
              containerPort: {{ $values.port }}
              protocol: TCP
            {{- if ne $traits.probes $traits.protocol }}
            - name: http
              containerPort: {{ $values.healthPort }}
              protocol: TCP
            {{- end }}
            {{- if eq $root.Values.telemetry.metricsExporter "prometheus" }}
            - name: metrics
              containerPort: {{ $root.Values.telemetry.prometheusPort }}
              protocol: TCP
            {{- end }}
          envFrom:
            - configMapRef:
                name: {{ $fullName }}
            {{- if include "retail-data.secretData" (list $root $name) }}
            - secretRef:
                name: {{ $fullName }}
            {{- end }}
          {{- with include "retail-data.secretEnv" (list $root $name) }}
          env:
            {{- . | trim | nindent 12 }}
          {{- end }}
          {{- if eq $traits.probes "grpc" }}
          {{- /* Native gRPC probes on grpc.health.v1 (Kubernetes >= 1.27). */}}
          readinessProbe:
            grpc: { port: {{ $values.port }} }
            periodSeconds: 5
            failureThreshold: 3
          livenessProbe:
            grpc: { port: {{ $values.port }} }
            initialDelaySeconds: 10
            periodSeconds: 10
            failureThreshold: 3
          {{- else }}
          readinessProbe:
            httpGet: { path: /readyz, port: http }
            periodSeconds: 5
            failureThreshold: 3
          livenessProbe:
            httpGet: { path: /healthz, port: http }
            initialDelaySeconds: 10
            periodSeconds: 10
            failureThreshold: 3
          {{- end }}
          resources:
            {{- toYaml $values.resources | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ $pods.tmpSizeLimit }}
      {{- with $values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end }}

{{/* Environment variables taken from shared or existing Secrets. Args: (list $ "rest"). */}}
{{- define "retail-data.secretEnv" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $traits := index (include "retail-data.deployables" $root | fromYaml) $name }}
{{- if or (eq $name "core") $traits.callsCore $traits.callsWatcher }}
- name: SERVICE_TOKEN
  valueFrom:
    secretKeyRef: {{ include "retail-data.serviceTokenRef" $root }}
{{- end }}
{{- /* A Cluster ledger is reached through LEDGER_REDIS_CLUSTER (ConfigMap) instead. */}}
{{- if and $traits.ledger (not (include "retail-data.ledgerOnCluster" $root)) }}
- name: LEDGER_REDIS_URL
  valueFrom:
    secretKeyRef: {{ include "retail-data.redisUrlRef" (list $root "ledger") }}
{{- end }}
{{- if and $traits.ledger $root.Values.metering.database.existingSecret }}
- name: LEDGER_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $root.Values.metering.database.existingSecret | quote }}
      key: {{ $root.Values.metering.database.existingSecretKey | quote }}
{{- end }}
{{- if $traits.cache }}
- name: CACHE_REDIS_URL
  valueFrom:
    secretKeyRef: {{ include "retail-data.redisUrlRef" (list $root "cache") }}
{{- end }}
{{- if and (eq $name "core") $root.Values.core.secret.upstreamProxies.existingSecret }}
- name: UPSTREAM_PROXIES
  valueFrom:
    secretKeyRef: {{ include "retail-data.upstreamProxiesRef" $root }}
{{- end }}
{{- if and (eq $name "console") $root.Values.console.sessionSecret.existingSecret }}
- name: CONSOLE_SESSION_SECRET
  valueFrom:
    secretKeyRef: {{ include "retail-data.sessionSecretRef" $root }}
{{- end }}
{{- if eq $name "watcher" }}
{{- include "retail-data.watcherSecretEnv" $root }}
{{- end }}
{{- end }}
