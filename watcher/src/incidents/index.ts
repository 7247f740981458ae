export { createOperatorWebhookProcessor, incidentMessage } from './deliver-operator-webhook.js';
export { INCIDENT_LOG_QUEUE, INCIDENT_LOG_SCHEDULE, OPERATOR_WEBHOOK_QUEUE, operatorWebhookJobId, type OperatorWebhookJob } from './incident-queues.js';
export { loadOperatorWebhook, OPERATOR_SECRET_VARIABLE, OPERATOR_URL_VARIABLE, type OperatorWebhook } from './operator-config.js';
export { changeVerb, createIncidentLogReader } from './read-incident-log.js';
