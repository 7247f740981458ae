/**
 * Renders the chart with the real helm binary and checks every object offline against the
 * Kubernetes schemas (kubernetes-models 4.x): apiVersion/kind → model class → validate().
 */
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { CHART_DIR, runHelm } from '../harness/helm.js';

// The objects these tests read are plain JSON; these aliases keep property access readable.
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; [key: string]: any }; [key: string]: any };

type Model = new (data: never) => { validate(): void };

/** The kinds the chart may render, each with the model that validates it. */
const MODELS: Record<string, Model> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
};

/**
 * Kinds without a model in kubernetes-models (CRDs), listed deliberately, each with the structural
 * check that stands in for the schema.
 */
const CRD_CHECKS: Record<string, (object: K8sObject) => void> = {
  // The rules themselves are checked by promtool (test/deploy/prometheus-rules.test.ts).
  'monitoring.coreos.com/v1/PrometheusRule': (rule) => {
    const groups = rule.spec?.groups;
    if (!Array.isArray(groups) || groups.length === 0) throw new Error('PrometheusRule without groups');
    for (const group of groups) {
      if (typeof group.name !== 'string' || !Array.isArray(group.rules) || group.rules.length === 0) throw new Error('PrometheusRule group without name or rules');
    }
  },
  'gateway.networking.k8s.io/v1/HTTPRoute': (route) => {
    const spec = route.spec ?? {};
    if (!Array.isArray(spec.parentRefs) || spec.parentRefs.length === 0) throw new Error('HTTPRoute without parentRefs');
    for (const rule of spec.rules ?? []) {
      for (const match of rule.matches ?? []) {
        if (!['Exact', 'PathPrefix', 'RegularExpression'].includes(match.path?.type)) {
          throw new Error(`HTTPRoute path type ${match.path?.type}`);
        }
        if (typeof match.path?.value !== 'string' || !match.path.value.startsWith('/')) throw new Error('HTTPRoute path value');
      }
      for (const backend of rule.backendRefs ?? []) {
        if (typeof backend.name !== 'string' || !Number.isInteger(backend.port)) throw new Error('HTTPRoute backendRef');
      }
    }
  },
};

/** extraArgs: more helm flags, e.g. a server-side dry run against a stand-in API (fake-kube-api.ts). */
export async function renderChart(helm: string, options: { valuesFiles?: string[]; set?: string[]; extraArgs?: string[] } = {}): Promise<K8sObject[]> {
  const args = ['template', 'retail', CHART_DIR, '--namespace', 'retail', ...(options.extraArgs ?? [])];
  for (const file of options.valuesFiles ?? []) args.push('--values', file);
  for (const value of options.set ?? []) args.push('--set', value);
  const { stdout } = await runHelm(helm, args);
  return parseAllDocuments(stdout)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`rendered YAML does not parse: ${document.errors[0]!.message}`);
      return document.toJSON() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

/** Validates one object; throws naming the object and the schema violation. */
export function validateObject(object: K8sObject): void {
  const kind = `${object.apiVersion}/${object.kind}`;
  const where = `${kind} ${object.metadata?.name}`;
  const Model = MODELS[kind];
  const crdCheck = CRD_CHECKS[kind];
  if (!Model && !crdCheck) throw new Error(`${where}: no schema for this kind (add it to MODELS or CRD_CHECKS deliberately)`);
  try {
    if (Model) new Model(object as never).validate();
    else crdCheck!(object);
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
  }
}

export function byKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((object) => object.kind === kind);
}

export function find(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name);
}

/** Deployment or StatefulSet of a component label (core, rest, redis-ledger, ...). */
export function workload(objects: K8sObject[], component: string): K8sObject {
  const found = objects.find(
    (object) =>
      (object.kind === 'Deployment' || object.kind === 'StatefulSet') &&
      object.metadata.labels?.['app.kubernetes.io/component'] === component,
  );
  if (!found) throw new Error(`no workload for ${component}`);
  return found;
}

export function labelsMatch(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

/** One container's variables: plain (ConfigMap), secret (its Secrets' data, decoded), refs ("secret:<name>/<key>"). */
export interface ContainerEnvironment {
  plain: Record<string, string>;
  secret: Record<string, string>;
  refs: Record<string, string>;
  all: string[];
}

/** The environment of a component's first container, from the objects the render holds. */
export function environmentOf(objects: K8sObject[], component: string): ContainerEnvironment {
  const container = workload(objects, component).spec.template.spec.containers[0];
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(plain, find(objects, 'ConfigMap', source.configMapRef.name)!.data);
    for (const [key, value] of Object.entries(find(objects, 'Secret', source.secretRef?.name ?? '')?.data ?? {})) {
      secret[key] = Buffer.from(value as string, 'base64').toString();
    }
  }
  const refs: Record<string, string> = {};
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    if (ref) refs[entry.name] = `secret:${ref.name}/${ref.key}`;
    else if (entry.value !== undefined) plain[entry.name] = entry.value;
  }
  return { plain, secret, refs, all: [...Object.keys(plain), ...Object.keys(secret), ...Object.keys(refs)] };
}
