package main

import (
	"context"

	"github.com/spf13/pflag"

	"k8s.io/client-go/tools/cache"
	schedulerapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
	scheduleroptions "k8s.io/kubernetes/cmd/kube-scheduler/app/options"
)

// startScheduler runs kube-scheduler in this process through its own options,
// flag sets, Setup and Run (as its command does), with its own client
// certificate, no leader election and no serving port.
func startScheduler(ctx context.Context, kubeconfigPath string, extraArgs []string) (chan error, error) {
	opts := scheduleroptions.NewOptions()
	fs := pflag.NewFlagSet("kube-scheduler", pflag.ContinueOnError)
	for _, f := range opts.Flags.FlagSets {
		fs.AddFlagSet(f)
	}
	args := []string{
		"--kubeconfig=" + kubeconfigPath,
		"--leader-elect=false",
		"--secure-port=0",
	}
	if err := fs.Parse(append(args, extraArgs...)); err != nil {
		return nil, err
	}
	informerName, err := cache.NewInformerName("kube-scheduler")
	if err != nil {
		return nil, err
	}
	opts.InformerName = informerName
	cc, sched, err := schedulerapp.Setup(ctx, opts)
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		err := schedulerapp.Run(ctx, cc, sched)
		if ctx.Err() != nil {
			err = nil // Run always returns an error, also when asked to stop
		}
		done <- err
	}()
	return done, nil
}
