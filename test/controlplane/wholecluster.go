package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// wholeCluster is what --nodes adds: kube-scheduler and KWOK with N fake Nodes.
type wholeCluster struct {
	nodes                   int
	kwokBinary              string
	schedulerArgs, kwokArgs []string
}

type wholeClusterRunning struct {
	schedulerDone chan error
	kwok          *kwokProcess
}

// start starts kube-scheduler, then KWOK, creates the Nodes and waits until KWOK
// made them Ready. The returned stop is safe to call whatever failed.
func (w wholeCluster) start(ctx context.Context, tmpDir, server string, pki *pkiFiles, client kubernetes.Interface) (*wholeClusterRunning, error) {
	r := &wholeClusterRunning{}
	schedulerKubeconfig := filepath.Join(tmpDir, "pki", "scheduler.kubeconfig")
	if err := writeComponentKubeconfig(schedulerKubeconfig, server, "scheduler", pki.Scheduler, pki); err != nil {
		return r, fmt.Errorf("scheduler kubeconfig: %v", err)
	}
	kwokKubeconfig := filepath.Join(tmpDir, "pki", "kwok.kubeconfig")
	if err := writeComponentKubeconfig(kwokKubeconfig, server, "kwok", pki.KWOK, pki); err != nil {
		return r, fmt.Errorf("kwok kubeconfig: %v", err)
	}
	done, err := startScheduler(ctx, schedulerKubeconfig, w.schedulerArgs)
	if err != nil {
		return r, fmt.Errorf("kube-scheduler: %v", err)
	}
	r.schedulerDone = done
	if r.kwok, err = startKWOK(w.kwokBinary, kwokKubeconfig, tmpDir, w.kwokArgs); err != nil {
		return r, fmt.Errorf("kwok: %v", err)
	}
	if err := createNodes(ctx, client, w.nodes); err != nil {
		return r, fmt.Errorf("creating Nodes: %v", err)
	}
	if err := waitNodesReady(ctx, client, w.nodes, r.kwok); err != nil {
		return r, fmt.Errorf("Nodes not Ready: %v", err)
	}
	return r, nil
}

// stop stops KWOK, then waits for kube-scheduler (stopped by the context).
func (r *wholeClusterRunning) stop() {
	if r.kwok != nil {
		r.kwok.stop()
	}
	if r.schedulerDone != nil {
		select {
		case err := <-r.schedulerDone:
			if err != nil {
				klog.Errorf("kube-scheduler stopped: %v", err)
			}
		case <-time.After(10 * time.Second):
			klog.Errorf("kube-scheduler did not stop within 10s")
		}
	}
}

// kwokNodeAnnotation marks the Nodes KWOK manages (its usual annotation).
const kwokNodeAnnotation = "kwok.x-k8s.io/node"

// kwokBinaryName is built by scripts/controlPlane.mjs from test/controlplane/kwok
// next to the control plane binary.
const kwokBinaryName = "kube-gc-lens-kwok"

func defaultKWOKBinary() string {
	self, err := os.Executable()
	if err != nil {
		return kwokBinaryName
	}
	return filepath.Join(filepath.Dir(self), kwokBinaryName)
}

// kwokProcess is KWOK's controller, a child process: it plays the kubelet's
// part for the fake Nodes (Node status and Lease, Pod status, final deletion).
type kwokProcess struct {
	cmd  *exec.Cmd
	done chan error
}

func startKWOK(binary, kubeconfigPath, tmpDir string, extraArgs []string) (*kwokProcess, error) {
	args := []string{
		"--kubeconfig=" + kubeconfigPath,
		"--manage-all-nodes=false",
		"--manage-nodes-with-annotation-selector=" + kwokNodeAnnotation + "=fake",
		"--node-lease-duration-seconds=40",
		"--cidr=10.244.0.0/16",
		"--node-ip=127.0.0.1",
		"--stages-file=" + filepath.Join(tmpDir, "kwok-stages.yaml"),
	}
	cmd := exec.Command(binary, append(args, extraArgs...)...)
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w (build it with `node scripts/controlPlane.mjs build`)", err)
	}
	k := &kwokProcess{cmd: cmd, done: make(chan error, 1)}
	go func() { k.done <- cmd.Wait() }()
	return k, nil
}

// stop sends SIGTERM and waits; KWOK is killed if it does not exit in time.
func (k *kwokProcess) stop() {
	_ = k.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-k.done:
	case <-time.After(5 * time.Second):
		klog.Errorf("kwok did not stop within 5s, killing it")
		_ = k.cmd.Process.Kill()
		<-k.done
	}
}

func nodeName(i int) string { return fmt.Sprintf("kwok-node-%d", i) }

// createNodes creates the fake Nodes, as a kubelet registers its Node; KWOK
// then initializes their status (Ready) and renews their Leases.
func createNodes(ctx context.Context, client kubernetes.Interface, n int) error {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("32"),
		corev1.ResourceMemory: resource.MustParse("256Gi"),
		corev1.ResourcePods:   resource.MustParse("110"),
	}
	for i := 0; i < n; i++ {
		node := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{
				Name:        nodeName(i),
				Annotations: map[string]string{kwokNodeAnnotation: "fake"},
				Labels: map[string]string{
					"kubernetes.io/hostname": nodeName(i),
					"kubernetes.io/os":       "linux",
					"kubernetes.io/arch":     "amd64",
					"type":                   "kwok",
				},
			},
			Status: corev1.NodeStatus{Capacity: capacity, Allocatable: capacity},
		}
		if _, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// waitNodesReady waits until KWOK has made every fake Node Ready.
func waitNodesReady(ctx context.Context, client kubernetes.Interface, n int, kwok *kwokProcess) error {
	return wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		select {
		case err := <-kwok.done:
			kwok.done <- err
			return false, fmt.Errorf("kwok exited: %v", err)
		default:
		}
		for i := 0; i < n; i++ {
			node, err := client.CoreV1().Nodes().Get(ctx, nodeName(i), metav1.GetOptions{})
			if err != nil || !nodeReady(node) {
				return false, nil
			}
		}
		return true, nil
	})
}

func nodeReady(node *corev1.Node) bool {
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
