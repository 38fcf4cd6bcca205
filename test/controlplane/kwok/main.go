// Command kube-gc-lens-kwok is KWOK's controller (sigs.k8s.io/kwok/pkg/kwok/cmd,
// the same command as KWOK's own kwok binary), built in its own module because
// KWOK v0.8.0 requires k8s.io v0.36 while the control plane uses v0.37.
//
// The control plane starts it when --nodes is given. --stages-file=PATH writes
// the stages it plays to PATH and loads them from there:
//   - KWOK's default stages for Nodes (node-initialize, node-heartbeat-with-lease)
//     and for Pods (pod-ready, pod-complete), as kwokctl uses them;
//   - instead of KWOK's fast pod-delete, which deletes a terminating Pod at once,
//     pod-delete-after-grace: a terminating Pod is deleted (grace 0, as the kubelet
//     does once its containers stopped) when its deletionTimestamp comes, i.e.
//     after its grace period, like a container that waits for SIGKILL.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	nodefast "sigs.k8s.io/kwok/kustomize/stage/node/fast"
	nodeheartbeat "sigs.k8s.io/kwok/kustomize/stage/node/heartbeat-with-lease"
	podfast "sigs.k8s.io/kwok/kustomize/stage/pod/fast"
	"sigs.k8s.io/kwok/pkg/config"
	"sigs.k8s.io/kwok/pkg/kwok/cmd"
	"sigs.k8s.io/kwok/pkg/log"
	"sigs.k8s.io/kwok/pkg/utils/signals"
)

// podDeleteAfterGrace waits until the deletionTimestamp (now + the grace period
// when the deletion was asked) before the final delete.
const podDeleteAfterGrace = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-delete-after-grace
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'Exists'
  delay:
    durationMilliseconds: 0
    durationFrom:
      expressionFrom: '.metadata.deletionTimestamp'
  next:
    delete: true
`

func stages() string {
	docs := []string{
		nodefast.DefaultNodeInit,
		nodeheartbeat.DefaultNodeHeartbeatWithLease,
		podfast.DefaultPodReady,
		podfast.DefaultPodComplete,
		podDeleteAfterGrace,
	}
	for i, d := range docs {
		docs[i] = strings.TrimSpace(d)
	}
	return strings.Join(docs, "\n---\n") + "\n"
}

func main() {
	args, err := withStagesFile(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "kube-gc-lens-kwok:", err)
		os.Exit(2)
	}
	os.Args = append(os.Args[:1], args...)

	// As KWOK's cmd/kwok: global flags (logging, --config) first, then the command.
	flagset := pflag.NewFlagSet("global", pflag.ContinueOnError)
	flagset.ParseErrorsAllowlist.UnknownFlags = true
	flagset.Usage = func() {}
	ctx := signals.SetupSignalContext()
	ctx, logger := log.InitFlags(ctx, flagset)
	ctx, err = config.InitFlags(ctx, flagset)
	if err != nil {
		logger.Error("Init config flags", "err", err)
		os.Exit(1)
	}
	command := cmd.NewCommand(ctx)
	command.PersistentFlags().AddFlagSet(flagset)
	if err := command.ExecuteContext(ctx); err != nil {
		logger.Error("Execute exit", "err", err)
		os.Exit(1)
	}
}

// withStagesFile replaces --stages-file=PATH by --config=PATH after writing the stages there.
func withStagesFile(args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for _, a := range args {
		path, ok := strings.CutPrefix(a, "--stages-file=")
		if !ok {
			out = append(out, a)
			continue
		}
		if err := os.WriteFile(path, []byte(stages()), 0o600); err != nil {
			return nil, err
		}
		out = append(out, "--config="+path)
	}
	return out, nil
}
