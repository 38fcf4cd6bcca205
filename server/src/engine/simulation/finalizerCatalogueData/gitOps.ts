// Well-known finalizers of GitOps tools (Argo CD, Flux), as data read from each project's own source (the file that
// removes it, at the commit read). The fields are described in ../finalizerCatalogue.ts.

export const FINALIZERS_OF_GITOPS = [
  {
    finalizer: 'resources-finalizer.argocd.argoproj.io',
    appliesTo: ['argoproj.io/Application'],
    project: 'Argo CD',
    controller: 'application controller',
    workload: {
      images: ['argoproj/argocd'],
      names: ['argocd-application-controller'],
    },
    action: 'cascade-deletes',
    does: 'deletes every resource the Application manages in its destination cluster (foreground propagation), and waits until they are gone',
    variants:
      '/foreground (like the plain name) and /background only choose the propagation policy: all three delete the managed resources',
    leavesBehind: "the Application's resources stay, running, no longer managed by Argo CD",
    source: {
      repo: 'argoproj/argo-cd',
      path: 'controller/appcontroller.go',
      commit: '37ee0097cf851bc2dd7665fc081bbce61a7e836e',
    },
  },
  {
    finalizer: 'resources-finalizer.argocd.argoproj.io/foreground',
    appliesTo: ['argoproj.io/Application'],
    project: 'Argo CD',
    controller: 'application controller',
    workload: {
      images: ['argoproj/argocd'],
      names: ['argocd-application-controller'],
    },
    action: 'cascade-deletes',
    does: 'deletes every resource the Application manages in its destination cluster (foreground propagation), and waits until they are gone',
    variants:
      '/foreground (like the plain name) and /background only choose the propagation policy: all three delete the managed resources',
    leavesBehind: "the Application's resources stay, running, no longer managed by Argo CD",
    source: {
      repo: 'argoproj/argo-cd',
      path: 'controller/appcontroller.go',
      commit: '37ee0097cf851bc2dd7665fc081bbce61a7e836e',
    },
  },
  {
    finalizer: 'resources-finalizer.argocd.argoproj.io/background',
    appliesTo: ['argoproj.io/Application'],
    project: 'Argo CD',
    controller: 'application controller',
    workload: {
      images: ['argoproj/argocd'],
      names: ['argocd-application-controller'],
    },
    action: 'cascade-deletes',
    does: 'deletes every resource the Application manages in its destination cluster (background propagation), and waits until they are gone',
    variants:
      '/foreground (like the plain name) and /background only choose the propagation policy: all three delete the managed resources',
    leavesBehind: "the Application's resources stay, running, no longer managed by Argo CD",
    source: {
      repo: 'argoproj/argo-cd',
      path: 'controller/appcontroller.go',
      commit: '37ee0097cf851bc2dd7665fc081bbce61a7e836e',
    },
  },
  {
    finalizer: 'resources-finalizer.argocd.argoproj.io',
    appliesTo: ['argoproj.io/AppProject'],
    project: 'Argo CD',
    controller: 'application controller',
    workload: {
      images: ['argoproj/argocd'],
      names: ['argocd-application-controller'],
    },
    action: 'nothing',
    does: 'waits until no Application uses the project',
    leavesBehind: 'nothing: Applications that still name the project lose it',
    source: {
      repo: 'argoproj/argo-cd',
      path: 'controller/appcontroller.go',
      commit: '37ee0097cf851bc2dd7665fc081bbce61a7e836e',
    },
  },
  {
    finalizer: 'resources-finalizer.argocd.argoproj.io',
    appliesTo: ['argoproj.io/ApplicationSet'],
    project: 'Argo CD',
    controller: 'ApplicationSet controller',
    workload: {
      images: ['argoproj/argocd'],
      names: ['argocd-applicationset-controller'],
    },
    action: 'cascade-deletes',
    does: "deletes the ApplicationSet's Applications in reverse order of their progressive sync (deletionOrder: Reverse), each with what it manages",
    leavesBehind:
      'the Applications are left to the garbage collector, which deletes them (they are owned by the ApplicationSet) in no particular order',
    source: {
      repo: 'argoproj/argo-cd',
      path: 'applicationset/controllers/applicationset_controller.go',
      commit: '37ee0097cf851bc2dd7665fc081bbce61a7e836e',
    },
  },
  {
    finalizer: 'post-delete-finalizer.argocd.argoproj.io*',
    appliesTo: ['argoproj.io/Application'],
    project: 'Argo CD',
    controller: 'application controller',
    workload: {
      images: ['argoproj/argocd'],
      names: ['argocd-application-controller'],
    },
    action: 'cleans-cluster',
    does: "runs the Application's PostDelete hooks (creates their Jobs or Pods and waits for them); the /cleanup variant then deletes those hook resources",
    leavesBehind: 'the PostDelete hooks never run, or their resources stay',
    source: {
      repo: 'argoproj/argo-cd',
      path: 'controller/appcontroller.go',
      commit: '37ee0097cf851bc2dd7665fc081bbce61a7e836e',
    },
  },
  {
    finalizer: 'pre-delete-finalizer.argocd.argoproj.io*',
    appliesTo: ['argoproj.io/Application'],
    project: 'Argo CD',
    controller: 'application controller',
    workload: {
      images: ['argoproj/argocd'],
      names: ['argocd-application-controller'],
    },
    action: 'cleans-cluster',
    does: "runs the Application's PreDelete hooks before its resources are deleted; the /cleanup variant then deletes those hook resources",
    leavesBehind: 'the PreDelete hooks never run, or their resources stay',
    source: {
      repo: 'argoproj/argo-cd',
      path: 'controller/appcontroller.go',
      commit: '37ee0097cf851bc2dd7665fc081bbce61a7e836e',
    },
  },
  {
    finalizer: 'argocd.argoproj.io/hook-finalizer',
    project: 'Argo CD',
    controller: 'application controller',
    workload: {
      images: ['argoproj/argocd'],
      names: ['argocd-application-controller'],
    },
    action: 'nothing',
    does: "removes it once the hook's sync phase no longer needs the hook resource",
    leavesBehind: 'nothing of consequence: the hook resource goes',
    source: {
      repo: 'argoproj/argo-cd',
      path: 'gitops-engine/pkg/sync/hook/hook.go',
      commit: '37ee0097cf851bc2dd7665fc081bbce61a7e836e',
    },
  },
  {
    finalizer: 'finalizers.fluxcd.io',
    appliesTo: ['kustomize.toolkit.fluxcd.io/Kustomization'],
    project: 'Flux',
    controller: 'kustomize-controller',
    workload: {
      images: ['fluxcd/kustomize-controller'],
      names: ['kustomize-controller'],
    },
    action: 'cascade-deletes',
    does: 'deletes every object the Kustomization applied (when spec.prune is true)',
    variants:
      'spec.prune: false, spec.deletionPolicy: Orphan or spec.suspend: true delete nothing; deletionPolicy: Delete deletes even without prune',
    leavesBehind: 'the objects the Kustomization applied stay, running, no longer reconciled',
    source: {
      repo: 'fluxcd/kustomize-controller',
      path: 'internal/controller/kustomization_controller.go',
      commit: '186fb3b29138ce82ff61ba1a9370b96a3dd598fe',
    },
  },
  {
    finalizer: 'finalizers.fluxcd.io',
    appliesTo: ['helm.toolkit.fluxcd.io/HelmRelease'],
    project: 'Flux',
    controller: 'helm-controller',
    workload: {
      images: ['fluxcd/helm-controller'],
      names: ['helm-controller'],
    },
    action: 'cascade-deletes',
    does: 'uninstalls the Helm release (deletes every object of the chart) and deletes its HelmChart',
    variants: 'spec.suspend: true uninstalls nothing',
    leavesBehind: "the release's objects stay, running, with the Helm release secret; nothing reconciles them",
    source: {
      repo: 'fluxcd/helm-controller',
      path: 'internal/controller/helmrelease_controller.go',
      commit: '0f61a8607a62be64638f2f912d9487e653960a6e',
    },
  },
  {
    finalizer: 'finalizers.fluxcd.io',
    appliesTo: ['source.toolkit.fluxcd.io/*'],
    project: 'Flux',
    controller: 'source-controller',
    workload: {
      images: ['fluxcd/source-controller'],
      names: ['source-controller'],
    },
    action: 'nothing',
    does: "deletes the source's artifacts from its own storage",
    leavesBehind: "nothing of consequence: stale artifacts in source-controller's storage, collected later",
    source: {
      repo: 'fluxcd/source-controller',
      path: 'internal/controller/gitrepository_controller.go',
      commit: '39b711b111fa906c3db0a424e252a5d12e48646d',
    },
  },
] as const;
