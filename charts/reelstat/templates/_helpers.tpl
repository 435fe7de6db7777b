{{/* Names and labels shared by every template. */}}
{{- define "reelstat.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "reelstat.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "reelstat.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "reelstat.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: reelstat
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Selector labels of one component: include "reelstat.selectorLabels" (list $ "api") */}}
{{- define "reelstat.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "reelstat.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "reelstat.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "reelstat.secretName" -}}
{{- default (printf "%s-secrets" (include "reelstat.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* postgresql.mode with "auto" resolved: cloudnativepg when its API is served, else bundled. */}}
{{- define "reelstat.postgresMode" -}}
{{- if eq .Values.postgresql.mode "auto" -}}
{{- if .Capabilities.APIVersions.Has "postgresql.cnpg.io/v1/Cluster" -}}cloudnativepg{{- else -}}bundled{{- end -}}
{{- else -}}
{{- .Values.postgresql.mode -}}
{{- end -}}
{{- end -}}

{{/*
A generated secret value that survives upgrades: the value already in the cluster when there is one
(lookup), else a new random one. include "reelstat.keptSecret" (dict "root" $ "name" "x" "key" "k" "length" 48)
*/}}
{{- define "reelstat.keptSecret" -}}
{{- $existing := (lookup "v1" "Secret" .root.Release.Namespace .name) | default dict -}}
{{- $data := (get $existing "data") | default dict -}}
{{- if hasKey $data .key -}}
{{- index $data .key -}}
{{- else -}}
{{- randAlphaNum (int .length) | b64enc -}}
{{- end -}}
{{- end -}}

{{/* Non-root, seccomp RuntimeDefault: the same for every pod the chart runs. */}}
{{- define "reelstat.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid | default 10001 }}
runAsGroup: {{ .uid | default 10001 }}
fsGroup: {{ .uid | default 10001 }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "reelstat.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
privileged: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* DATABASE_URL and REDIS_URL of the roles, from a Secret whatever the mode: never a plain value. */}}
{{- define "reelstat.connectionEnv" -}}
{{- $fullname := include "reelstat.fullname" . -}}
{{- $pg := include "reelstat.postgresMode" . -}}
{{- if eq $pg "external" }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ default (printf "%s-connections" $fullname) .Values.postgresql.external.existingSecret }}
      key: {{ ternary .Values.postgresql.external.existingSecretKey "database-url" (ne .Values.postgresql.external.existingSecret "") }}
{{- else if eq $pg "cloudnativepg" }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $fullname }}-pg-app
      key: uri
{{- else }}
- name: POSTGRES_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $fullname }}-postgresql
      key: password
- name: DATABASE_URL
  value: postgresql://reelstat:$(POSTGRES_PASSWORD)@{{ $fullname }}-postgresql:5432/reelstat
{{- end }}
{{- if eq .Values.redis.mode "external" }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ default (printf "%s-connections" $fullname) .Values.redis.external.existingSecret }}
      key: {{ ternary .Values.redis.external.existingSecretKey "redis-url" (ne .Values.redis.external.existingSecret "") }}
{{- else }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $fullname }}-redis
      key: password
- name: REDIS_URL
  value: redis://:$(REDIS_PASSWORD)@{{ $fullname }}-redis:6379
{{- end }}
{{- end -}}

{{/*
One role's Deployment. Every role runs the same image with ROLES set to that role.
include "reelstat.roleDeployment" (dict "root" $ "role" "api" "replicas" 2 "resources" {...} "kubernetesApi" false)
*/}}
{{- define "reelstat.roleDeployment" -}}
{{- $root := .root -}}
{{- $fullname := include "reelstat.fullname" $root -}}
{{- $values := $root.Values -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $fullname }}-{{ .role }}
  labels:
    {{- include "reelstat.labels" $root | nindent 4 }}
    app.kubernetes.io/component: {{ .role }}
spec:
  {{- if not .autoscaled }}
  replicas: {{ .replicas }}
  {{- end }}
  revisionHistoryLimit: 3
  selector:
    matchLabels:
      {{- include "reelstat.selectorLabels" (list $root .role) | nindent 6 }}
  {{- if eq .role "api" }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  {{- end }}
  template:
    metadata:
      labels:
        {{- include "reelstat.selectorLabels" (list $root .role) | nindent 8 }}
      annotations:
        checksum/secrets: {{ include (print $root.Template.BasePath "/secrets.yaml") $root | sha256sum }}
        {{- with $values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ $fullname }}-{{ .role }}
      automountServiceAccountToken: {{ .kubernetesApi }}
      {{- with $values.imagePullSecrets }}
      imagePullSecrets:
        {{- range . }}
        - name: {{ . }}
        {{- end }}
      {{- end }}
      securityContext:
        {{- include "reelstat.podSecurityContext" dict | nindent 8 }}
      terminationGracePeriodSeconds: 30
      {{- if .topologySpread }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "reelstat.selectorLabels" (list $root .role) | nindent 14 }}
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "reelstat.selectorLabels" (list $root .role) | nindent 14 }}
      {{- end }}
      {{- with $values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .role }}
          image: {{ include "reelstat.image" $root }}
          imagePullPolicy: {{ $values.image.pullPolicy }}
          args: ["--roles", "{{ .role }}"]
          ports:
            - name: http
              containerPort: 3000
              protocol: TCP
          env:
            - name: INSTANCE_ID
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
            - name: PORT
              value: "3000"
            - name: DATA_DIR
              value: /var/lib/reelstat
            - name: LOG_FORMAT
              value: json
            - name: LOG_LEVEL
              value: {{ $values.config.logLevel | quote }}
            - name: TZ
              value: {{ $values.config.timeZone | quote }}
            - name: BASE_URL
              value: {{ $values.config.baseUrl | quote }}
            - name: REDIS_KEY_PREFIX
              value: {{ $values.config.redisKeyPrefix | quote }}
            - name: TOKEN_TTL_HOURS
              value: {{ $values.config.tokenTtlHours | quote }}
            - name: TOKEN_RENEW_MAX_HOURS
              value: {{ $values.config.tokenRenewMaxHours | quote }}
            - name: LEADER_ELECTION
              value: {{ $values.config.leaderElection | quote }}
            - name: JWT_SECRET_FILE
              value: /etc/reelstat/secrets/jwt-secret
            - name: ENCRYPTION_KEY_FILE
              value: /etc/reelstat/secrets/encryption-key
            {{- if eq .role "api" }}
            # Readiness off on SIGTERM, still serving while the Service and Ingress move off (graceful drain).
            - name: SHUTDOWN_DRAIN_MS
              value: "5000"
            {{- end }}
            {{- if and (eq .role "api") $values.secrets.admin.username }}
            - name: ADMIN_USERNAME
              value: {{ $values.secrets.admin.username | quote }}
            - name: ADMIN_PASSWORD_FILE
              value: /etc/reelstat/secrets/admin-password
            {{- end }}
            {{- include "reelstat.connectionEnv" $root | trim | nindent 12 }}
            {{- with $values.config.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          startupProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 2
            failureThreshold: 60
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          readinessProbe:
            httpGet:
              path: /readyz
              port: http
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          resources:
            {{- toYaml .resources | nindent 12 }}
          securityContext:
            {{- include "reelstat.containerSecurityContext" . | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            - name: data
              mountPath: /var/lib/reelstat
            - name: secrets
              mountPath: /etc/reelstat/secrets
              readOnly: true
      volumes:
        - name: tmp
          emptyDir: {}
        - name: data
          emptyDir: {}
        - name: secrets
          secret:
            secretName: {{ include "reelstat.secretName" $root }}
            defaultMode: 0440
{{- end -}}
