// Ways out of finalizers the catalogue knows: a controller that deletes what it manages before removing its
// finalizer is never a safe restore, and removing the finalizer by hand (which keeps those objects) is offered with
// what it leaves behind; a harmless finalizer gets no warning about resources outside Kubernetes; the CRD's own
// finalizer says the custom resources' data stays in etcd.

import { describe, expect, it } from 'vitest';
import { waysOut } from '../../server/src/app/waysOut';
import { simulate } from '../../server/src/engine/simulation/simulate';
import { crd, HOLD, manifests, namespace, obj, TERMINATING, workloadSpec, type ObjectSpec } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';

const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };
const ARGO_FINALIZER = 'resources-finalizer.argocd.argoproj.io';
const GENERIC = /often outside Kubernetes/;

const argoController = (ns: string): ObjectSpec =>
  obj('apps/v1', 'StatefulSet', ns, 'argocd-application-controller', {
    extra: {
      spec: workloadSpec({ 'app.kubernetes.io/name': 'argocd-application-controller' }, [
        { name: 'application-controller', image: 'quay.io/argoproj/argocd:v2.12.3' },
      ]),
    },
  });
// Another component of Argo CD: the same image, so the controller is told from it by its usual name.
const argoServer = (ns: string): ObjectSpec =>
  obj('apps/v1', 'Deployment', ns, 'argocd-a-server', {
    extra: { spec: workloadSpec({ app: 'server' }, [{ name: 'server', image: 'quay.io/argoproj/argocd:v2.12.3' }]) },
  });
const application = (name: string, finalizer = ARGO_FINALIZER) =>
  obj('argoproj.io/v1alpha1', 'Application', 'argocd', name, { finalizers: [finalizer], ...TERMINATING });

describe('ways out of a catalogued finalizer whose controller deletes what it manages', () => {
  const ns = namespace('argocd', { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ['kubernetes'] } } });

  it('the Argo CD namespace deleted with an Application: reinstalling is not safe and says it deletes the managed resources; removing the finalizer by hand is offered', () => {
    const app = application('guestbook');
    const s = scenario(manifests(ns, argoServer('argocd'), argoController('argocd'), app));
    for (const uid of [ns.uid, app.uid]) {
      const ways = waysOut(s.inventory, uid, BUILTIN);
      expect(ways.length).toBeGreaterThan(0);
      const reinstall = ways.find((w) => w.title.startsWith('Reinstall'))!;
      expect(reinstall.title).toContain('StatefulSet argocd/argocd-application-controller');
      expect(reinstall.risk).toBe('dangerous');
      expect(reinstall.title).toMatch(/deletes every resource the Application manages/);
      expect(reinstall.warning).toMatch(
        /^not a neutral fix: once restored, Argo CD's application controller deletes every resource the Application manages/,
      );
      expect(ways.filter((w) => w.risk === 'safe')).toEqual([]);
      // The non-destructive way: the finalizer removed by hand, which keeps the Application's resources.
      const removal = ways.find((w) => w.title === `Remove the finalizer ${ARGO_FINALIZER} from Application argocd/guestbook`)!;
      expect(removal.risk).toBe('caution');
      expect(removal.warning).toMatch(/^left behind: the Application's resources stay, running, no longer managed by Argo CD/);
      expect(removal.outcome.deleted.map((d) => d.name)).toContain('guestbook');
      // Safest first: the removal that keeps them comes before the reinstall that deletes them.
      expect(ways.indexOf(removal)).toBeLessThan(ways.indexOf(reinstall));
    }
  });

  it('its variants too: /background and /foreground delete the managed resources as well', () => {
    for (const variant of ['/background', '/foreground']) {
      const app = application('guestbook', ARGO_FINALIZER + variant);
      const s = scenario(manifests(namespace('argocd'), app));
      const ways = waysOut(s.inventory, app.uid, BUILTIN);
      expect(ways.map((w) => w.risk)).toEqual(['caution', 'dangerous']);
      expect(ways[1].title).toMatch(
        /^Reinstall the operator that removes .*; once it runs, Argo CD's application controller deletes every resource/,
      );
    }
  });

  it('a Flux controller scaled to 0: scaling it up is not safe either (it prunes what the Kustomization applied)', () => {
    const flux = obj('apps/v1', 'Deployment', 'flux-system', 'kustomize-controller', {
      extra: {
        spec: workloadSpec({ app: 'kustomize-controller' }, [{ name: 'manager', image: 'ghcr.io/fluxcd/kustomize-controller:v1.3.0' }], {
          replicas: 0,
        }),
      },
    });
    const ks = obj('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', 'flux-system', 'apps', {
      finalizers: ['finalizers.fluxcd.io'],
      ...TERMINATING,
    });
    const s = scenario(manifests(namespace('flux-system'), flux, ks));
    const ways = waysOut(s.inventory, ks.uid, BUILTIN);
    expect(ways.map((w) => [w.risk, w.title.replace(/:.*/, '')])).toEqual([
      ['caution', 'Remove the finalizer finalizers.fluxcd.io from Kustomization flux-system/apps'],
      ['dangerous', 'Scale Deployment flux-system/kustomize-controller up to 1 replica'],
    ]);
    expect(ways[1].title).toMatch(/; once it runs, Flux's kustomize-controller deletes every object the Kustomization applied/);
    expect(ways[1].warning).toMatch(/spec\.prune: false, spec\.deletionPolicy: Orphan or spec\.suspend: true delete nothing/);
  });

  it('the why-chain says what the controller does before removing it', () => {
    const app = application('guestbook');
    const s = scenario(manifests(namespace('argocd'), app));
    const [entry] = simulate(s.inventory, [], BUILTIN).stuck;
    expect(entry.reason).toMatch(
      /nobody removes resources-finalizer\.argocd\.argoproj\.io: .*; before removing it, Argo CD's application controller deletes every resource the Application manages in its destination cluster/,
    );
  });

  it('a finalizer the catalogue does not know keeps the cautious wording', () => {
    const held = obj('example.com/v1', 'Widget', 'team', 'w', { finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(namespace('team'), held));
    const ways = waysOut(s.inventory, held.uid, BUILTIN);
    expect(ways.map((w) => w.risk)).toEqual(['safe', 'dangerous']);
    expect(ways[1].warning).toMatch(GENERIC);
  });
});

describe('warnings of catalogued finalizers removed by hand', () => {
  it('a harmless one: no warning about resources outside Kubernetes, and caution', () => {
    const prom = obj('monitoring.coreos.com/v1', 'Prometheus', 'monitoring', 'k8s', {
      finalizers: ['monitoring.coreos.com/status-cleanup'],
      ...TERMINATING,
    });
    const s = scenario(manifests(namespace('monitoring'), prom));
    const removal = waysOut(s.inventory, prom.uid, BUILTIN).find((w) => w.title.startsWith('Remove the finalizer'))!;
    expect(removal.risk).toBe('caution');
    expect(removal.warning).not.toMatch(GENERIC);
    expect(removal.warning).toMatch(
      /^Prometheus Operator's operator removes the workload's bindings .*: removing it leaves nothing of consequence/,
    );
  });

  it("the CRD's own customresourcecleanup: the custom resources' data stays in etcd", () => {
    const widgets = crd('example.com', 'Widget', 'widgets', 'Namespaced', [{ name: 'v1', served: true, storage: true }], {
      finalizers: ['customresourcecleanup.apiextensions.k8s.io'],
      ...TERMINATING,
    });
    const widget = obj('example.com/v1', 'Widget', 'team', 'w', { finalizers: [HOLD] });
    const s = scenario(manifests(namespace('team'), widgets, widget));
    const ways = waysOut(s.inventory, widgets.uid, BUILTIN);
    const removal = ways.find((w) => w.title.startsWith('Remove the finalizer customresourcecleanup.apiextensions.k8s.io'))!;
    expect(removal.risk).toBe('dangerous');
    expect(removal.warning).toMatch(/^left behind: the custom resources' data stays in etcd, out of sight/);
    expect(removal.warning).not.toMatch(GENERIC);
  });
});

describe('R89: at one risk, a way out that leaves things behind before one that destroys them, for what goes only with its namespace or CRD', () => {
  const TOPIC_FINALIZER = 'strimzi.io/topic-operator';
  const topicCrd = (more: Partial<ObjectSpec> = {}) =>
    crd('kafka.strimzi.io', 'KafkaTopic', 'kafkatopics', 'Namespaced', [{ name: 'v1beta2', served: true, storage: true }], more);
  const topic = obj('kafka.strimzi.io/v1beta2', 'KafkaTopic', 'kafka-test', 'orders', { finalizers: [TOPIC_FINALIZER], ...TERMINATING });
  const titles = (yaml: string) =>
    waysOut(scenario(yaml).inventory, topic.uid, BUILTIN)
      .filter((w) => w.risk === 'dangerous')
      .map((w) => w.title.replace(/;.*$/, ''));
  const removal = `Remove the finalizer ${TOPIC_FINALIZER} from KafkaTopic kafka-test/orders`;
  const reinstall = `Reinstall the operator that removes ${TOPIC_FINALIZER}`;

  it('its namespace being deleted: removing the finalizer by hand (the topic stays in Kafka) comes before the reinstall that deletes it', () => {
    const ns = namespace('kafka-test', { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ['kubernetes'] } } });
    const listed = titles(manifests(ns, topicCrd(), topic));
    expect(listed.indexOf(removal)).toBeGreaterThanOrEqual(0);
    expect(listed.indexOf(removal)).toBeLessThan(listed.findIndex((t) => t.startsWith('Reinstall the operator')));
  });

  it('its CRD being deleted: the same', () => {
    const listed = titles(manifests(namespace('kafka-test'), topicCrd(TERMINATING), topic));
    expect(listed.indexOf(removal)).toBeLessThan(listed.indexOf(reinstall));
  });

  it('deleted by itself: running its operator again finishes the deletion asked for, so it comes first', () => {
    const listed = titles(manifests(namespace('kafka-test'), topicCrd(), topic));
    expect(listed.slice(0, 2)).toEqual([reinstall, removal]);
  });
});
