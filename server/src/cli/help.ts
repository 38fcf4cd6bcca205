// `kubectl-gc --help`. The finding list is read from the catalogue, so it never drifts from the docs.

import { FINDING_CATALOGUE, severityWord } from '../engine/analysis/findingCatalogue';
import { FINDING_CODES } from '../engine/analysis/findingTypes';

/** The codes `check` reports (the live ones are the editor's), one line each: code, default severity, title. */
function findingList(): string {
  const docs = FINDING_CODES.map((c) => FINDING_CATALOGUE[c]).filter((d) => !d.live);
  const width = Math.max(...docs.map((d) => d.code.length));
  return docs.map((d) => `  ${d.code.padEnd(width)}  ${severityWord(d.severity).padEnd(7)}  ${d.title}`).join('\n');
}

export const HELP = `kubectl-gc: see what the Kubernetes garbage collector will do before it does it.

Usage:
  kubectl-gc simulate -f PATH... [TYPE/NAME ... | TYPE NAME ...] [-n NS] [--cascade=background|foreground|orphan]
                      [--remove-finalizer FINALIZER TYPE/NAME] [--remove-owner-reference OWNER_UID TYPE/NAME]
                      [--set-owner-reference OWNER_UID=TYPE/NAME[@UID] TYPE/NAME] [--scale REPLICAS TYPE/NAME]
                      [--restore-controller FINALIZER] [--restore-backend TYPE/NAME]
                      [--set-webhook-failure-policy WEBHOOK=Ignore|Fail TYPE/NAME]
                      [--plan FILE] [--arrival=settled|back-to-back] [--controllers=LIST] [--kube-version V]
                      [-o text|wide|json|dot] [--show-settling]
  kubectl-gc check    -f PATH... [-o text|json|sarif] [--fail-on error|warning|none] [--controllers=LIST] [--kube-version V]
  kubectl-gc graph    -f PATH... [-o dot|json] [--uid UID ...]
  kubectl-gc stuck    -f PATH... [-o text|json] [--slow-after D] [--controllers=LIST] [--kube-version V]

Without -f, each command reads the cluster of the kubeconfig's current context instead (metadata only, GET
requests only: nothing is ever written): --kubeconfig FILE, --context NAME, -n NS (that namespace and the
cluster-scoped resources), -A (every namespace, the default), --request-timeout DURATION. A resource whose answer
is too large (over 512 MB or 20 million values, or 2 GB for its whole LIST) or late is left out and named in a
warning; so are items with malformed metadata (only those items).

Input (-f, repeatable): YAML or JSON files and folders (recursive: .yaml, .yml, .json), multi-document YAML,
kind: List and every *List (kubectl get -o yaml|json output), "-" for stdin, and kube-controller-manager
garbage-collector graph dumps (.dot, /debug/controllers/garbagecollector/graph).

simulate   Deletes the targets (or the --plan's requests, one after the other), then runs the apiserver and the
           garbage collector to quiescence. Several requests are sent each after the previous one settles, unless
           --arrival=back-to-back sends them all before the garbage collector acts (as kubectl delete a b does). Without --cascade the request names no propagation policy and the
           API's per-type default applies (Orphan for v1 ReplicationController and batch/v1 Job, Background for
           everything else); kubectl delete itself always sends one (--cascade=background by default).
           Requests besides DELETE (--remove-finalizer, --remove-owner-reference, --set-owner-reference, --scale,
           --restore-controller, --restore-backend, --set-webhook-failure-policy, repeatable) are simulated too, in
           command-line order with the targets: what a change releases before you make it. Nothing is ever sent:
           the CLI prints what would happen.
           With no target and no plan, it runs the garbage collector on the state as given. The text leads with
           one summary line, then what the request causes grouped by kind (workloads and volumes first); what the
           garbage collector does to the input anyway is one line (--show-settling lists it and its steps). Long
           lists of one kind and long runs of like steps are folded with a count: -o wide shows every one.
check      Findings about ownerReferences and finalizers, with file:line:col. Exit 1 when a finding reaches
           --fail-on (default error). -o sarif writes SARIF 2.1.0 for code scanning.
graph      The ownership graph in the shape of kube-controller-manager's debug dump; --uid keeps the objects
           connected to those uids.
stuck      Objects being deleted that cannot finish (or finish only if a guessed controller is theirs), with how
           long they have been terminating and why; then those that can finish but have been terminating longer
           than --slow-after, or for a time a dump does not say (the editor's Stuck Objects answer).

Flags:
  -f, --filename PATH         input file, folder or - (repeatable); folders are always read recursively
                              (-R/--recursive is accepted for kubectl compatibility)
  -n, --namespace NS          namespace of targets and of namespaced objects without one (default "default", or
                              the context's namespace on a cluster); on a cluster, also the namespace to read
  -A, --all-namespaces        on a cluster: read every namespace (the default without -n)
      --kubeconfig FILE       on a cluster: the kubeconfig to use (else KUBECONFIG, else ~/.kube/config)
      --context NAME          on a cluster: the kubeconfig context to use (else its current context)
      --request-timeout D     on a cluster: the most one request (a LIST page) may take, retries included
                              (default 60s; as kubectl: 30s, 2m, 1h or whole seconds; 0 = no deadline)
      --cascade POLICY        background | foreground | orphan (simulate)
      --slow-after D          stuck: list objects terminating longer than this, though able to finish, as slow
                              (default 10m; files count to their newest timestamp; 0 = every one)
      --remove-finalizer FINALIZER TYPE/NAME
                              simulate: the PATCH that removes FINALIZER from TYPE/NAME (in -n); a Namespace's
                              spec.finalizers entry as /finalize removes it (repeatable, like the flags below)
      --remove-owner-reference OWNER_UID TYPE/NAME
                              simulate: the PATCH that removes TYPE/NAME's ownerReference to OWNER_UID
      --set-owner-reference OWNER_UID=TYPE/NAME[@UID] TYPE/NAME
                              simulate: the PATCH that points TYPE/NAME's ownerReference to OWNER_UID at another
                              owner (in its namespace or cluster-scoped; its uid from the input, or @UID when the
                              input lacks it), keeping controller and blockOwnerDeletion
      --scale REPLICAS TYPE/NAME
                              simulate: kubectl scale --replicas=REPLICAS TYPE/NAME (at 0 its controller stops)
      --restore-controller FINALIZER
                              simulate: the controller that removes FINALIZER runs again (its operator reinstalled)
      --restore-backend TYPE/NAME
                              simulate: the Pods behind a Service are ready again (its EndpointSlices, the
                              APIServices and webhooks it serves); apiservice/NAME: served again by its add-on
                              reinstalled in another namespace
      --set-webhook-failure-policy WEBHOOK=Ignore|Fail TYPE/NAME
                              simulate: the PATCH of one webhook's failurePolicy in a Validating- or
                              MutatingWebhookConfiguration
      --plan FILE             {"version"?: 2, "arrival"?, "controllers"?, "kubeVersion"?, "deletes": [{"apiVersion",
                              "kind", "namespace", "name", "propagationPolicy"}], "patches": [{"verb":
                              "remove-finalizer"|…, "apiVersion", "kind", "namespace", "name", "finalizer"|…}]} (the
                              deletes first), or "requests": [{"verb": "delete"|"remove-finalizer"|…, …}] in their
                              order; 1 to 100 requests (docs/cli.md; the flags override the plan's fields)
      --arrival MODE          settled (default): each request after the previous one settles; back-to-back: all
                              of them before the garbage collector acts (overrides the plan's "arrival")
      --controllers LIST      builtin (default): kubelet, namespace controller, pvc/pv-protection, the PV controller,
                              CRD cleanup and custom finalizer controllers act; gc: only the apiserver and the
                              garbage collector; or kube-controller-manager's own --controllers list (names, *,
                              -name, e.g. garbage-collector-controller,namespace-controller): exactly those and the
                              apiserver's CRD cleanup, no kubelet, no provisioner, no operator
      --kube-version V        the Kubernetes version whose behaviour to follow (e.g. 1.32; default: the cluster's
                              /version, or 1.37, the newest followed, for files)
      --finalizer-owner SPEC  FINALIZER=Kind/namespace/name | FINALIZER=external | FINALIZER=absent; FINALIZER may
                              end with * (prefix). Says which workload removes a custom finalizer (repeatable)
      --max-steps N           bound on simulated work items (default 5000000)
      --show-settling         simulate: also list what the garbage collector does without the request (settling the
                              input as given) and its steps before the request
  -o, --output FORMAT         text | wide | json | dot | sarif, per command (wide: simulate's text, nothing folded)
      --fail-on LEVEL         error | warning | none (check)
      --uid UID               keep the connected component of UID (graph, repeatable)
      --version               print the version

Findings (check; docs/findings.md explains each):
${findingList()}

Exit codes: 0 ok, 1 findings at or above --fail-on (check), 2 bad usage or unreadable input.
Colour: on a terminal only; set NO_COLOR to turn it off.
`;
