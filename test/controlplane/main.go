// Command kube-gc-lens-control-plane runs a local Kubernetes control plane in one
// process, built from Kubernetes' own Go modules: embedded etcd, kube-apiserver
// (client-certificate authentication, Node+RBAC authorization, TLS on 127.0.0.1)
// and kube-controller-manager's controllers chosen by --controllers. There is no
// kubelet: Pods never run, unless --nodes=N adds kube-scheduler (in process) and
// KWOK (a child process) playing the kubelet for N fake Nodes.
//
// Contract: when ready it prints exactly one JSON line on stdout,
//
//	{"kubeconfig": "<path>", "server": "https://127.0.0.1:<port>"}
//
// and logs only to stderr. The kubeconfig has the contexts "admin" (current,
// group system:masters) and "restricted" (read-only, cannot read secrets nor
// RBAC objects). SIGTERM or SIGINT stops it and removes its temporary directory.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	apiserverapp "k8s.io/kubernetes/cmd/kube-apiserver/app"
	apiserveroptions "k8s.io/kubernetes/cmd/kube-apiserver/app/options"
	kcmapp "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	kcmoptions "k8s.io/kubernetes/cmd/kube-controller-manager/app/options"
)

// defaultControllers are the controllers issue 14 asks for. CRD cleanup comes
// with the apiextensions-apiserver inside kube-apiserver.
const defaultControllers = "garbage-collector-controller,namespace-controller," +
	"persistentvolumeclaim-protection-controller,persistentvolume-protection-controller," +
	"persistentvolume-binder-controller"

func main() {
	// Keep the real stdout for the one JSON line; anything written to os.Stdout
	// by a library goes to stderr instead.
	jsonOut := os.Stdout
	os.Stdout = os.Stderr

	fs := pflag.NewFlagSet("kube-gc-lens-control-plane", pflag.ContinueOnError)
	controllers := fs.String("controllers", defaultControllers,
		"kube-controller-manager controllers to run, as its --controllers flag (e.g. '*', 'garbage-collector-controller,namespace-controller', '-foo')")
	verbosity := fs.Int("v", 0, "klog verbosity")
	withParent := fs.Bool("exit-with-parent", false, "stop (as on SIGTERM) when the parent process dies (Linux)")
	etcdLogLevel := fs.String("etcd-log-level", "error", "embedded etcd log level")
	nodes := fs.Int("nodes", 0, "fake Nodes managed by KWOK; when above 0, kube-scheduler and KWOK run too ('--controllers=* --nodes=N' is the whole cluster)")
	kwokBinary := fs.String("kwok-binary", defaultKWOKBinary(), "KWOK's controller (test/controlplane/kwok), used with --nodes")
	var apiserverArgs, kcmArgs []string
	fs.StringArrayVar(&apiserverArgs, "apiserver-arg", nil, "extra kube-apiserver flag (repeatable), e.g. --apiserver-arg=--audit-log-path=/tmp/a.log")
	fs.StringArrayVar(&kcmArgs, "controller-manager-arg", nil, "extra kube-controller-manager flag (repeatable)")
	var schedulerArgs, kwokArgs []string
	fs.StringArrayVar(&schedulerArgs, "scheduler-arg", nil, "extra kube-scheduler flag (repeatable; with --nodes)")
	fs.StringArrayVar(&kwokArgs, "kwok-arg", nil, "extra KWOK flag (repeatable; with --nodes)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *nodes < 0 {
		fmt.Fprintln(os.Stderr, "--nodes must be 0 or more, not", *nodes)
		os.Exit(2)
	}

	klogFlags := flagSetForKlog()
	_ = klogFlags.Set("logtostderr", "true")
	_ = klogFlags.Set("v", fmt.Sprint(*verbosity))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if *withParent {
		if err := exitWithParent(); err != nil {
			klog.Warningf("--exit-with-parent: %v", err)
		}
	}

	tmpDir, err := os.MkdirTemp("", "kube-gc-lens-control-plane-")
	if err != nil {
		klog.Fatalf("temp dir: %v", err)
	}
	whole := wholeCluster{nodes: *nodes, kwokBinary: *kwokBinary, schedulerArgs: schedulerArgs, kwokArgs: kwokArgs}
	code := run(ctx, tmpDir, jsonOut, *controllers, *etcdLogLevel, apiserverArgs, kcmArgs, whole)
	if err := os.RemoveAll(tmpDir); err != nil {
		klog.Errorf("removing %s: %v", tmpDir, err)
	}
	klog.Flush()
	os.Exit(code)
}

func run(sigCtx context.Context, tmpDir string, jsonOut *os.File, controllers, etcdLogLevel string, apiserverArgs, kcmArgs []string, whole wholeCluster) int {
	start := time.Now()
	ctx, cancel := context.WithCancel(sigCtx)
	defer cancel()

	var stopFns []func()
	stopAll := func() {
		cancel()
		for i := len(stopFns) - 1; i >= 0; i-- {
			stopFns[i]()
		}
	}
	fail := func(format string, args ...any) int {
		klog.Errorf(format, args...)
		stopAll()
		return 1
	}

	// PKI: one CA signs the serving certificate and every client certificate.
	pki, err := writePKI(filepath.Join(tmpDir, "pki"))
	if err != nil {
		return fail("pki: %v", err)
	}

	// etcd, embedded.
	etcdServer, etcdURL, err := startEtcd(filepath.Join(tmpDir, "etcd"), etcdLogLevel)
	if err != nil {
		return fail("etcd: %v", err)
	}
	stopFns = append(stopFns, func() {
		etcdServer.Close()
	})
	klog.Infof("etcd ready at %s (%s)", etcdURL, time.Since(start).Round(time.Millisecond))

	// kube-apiserver.
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail("listen: %v", err)
	}
	port := listener.Addr().(*net.TCPAddr).Port
	server := fmt.Sprintf("https://127.0.0.1:%d", port)
	apiserverDone, err := startAPIServer(ctx, listener, tmpDir, pki, etcdURL, apiserverArgs)
	if err != nil {
		return fail("kube-apiserver: %v", err)
	}
	stopFns = append(stopFns, func() {
		select {
		case err := <-apiserverDone:
			if err != nil {
				klog.Errorf("kube-apiserver stopped: %v", err)
			}
		case <-time.After(15 * time.Second):
			klog.Errorf("kube-apiserver did not stop within 15s")
		}
	})

	kubeconfigPath := filepath.Join(tmpDir, "kubeconfig")
	if err := writeKubeconfig(kubeconfigPath, server, pki); err != nil {
		return fail("kubeconfig: %v", err)
	}
	// The control plane's own requests (readiness, RBAC setup, controllers) use
	// its own user, so the admin user's audit entries are all from clients.
	kcmKubeconfig := filepath.Join(tmpDir, "pki", "controller-manager.kubeconfig")
	if err := writeComponentKubeconfig(kcmKubeconfig, server, "controller-manager", pki.ControllerManager, pki); err != nil {
		return fail("controller-manager kubeconfig: %v", err)
	}
	ownConfig, err := clientcmd.BuildConfigFromFlags("", kcmKubeconfig)
	if err != nil {
		return fail("client config: %v", err)
	}
	client, err := kubernetes.NewForConfig(ownConfig)
	if err != nil {
		return fail("client: %v", err)
	}
	if err := waitReady(ctx, client, apiserverDone); err != nil {
		return fail("kube-apiserver not ready: %v", err)
	}
	klog.Infof("kube-apiserver ready at %s (%s)", server, time.Since(start).Round(time.Millisecond))

	if err := grantRestricted(ctx, client); err != nil {
		return fail("restricted user RBAC: %v", err)
	}

	// kube-controller-manager, in the same process, with its own client certificate.
	kcmDone, err := startControllerManager(ctx, kcmKubeconfig, pki, controllers, kcmArgs)
	if err != nil {
		return fail("kube-controller-manager: %v", err)
	}
	// Stop the controllers before the apiserver and etcd.
	stopFns = append(stopFns, func() {
		select {
		case err := <-kcmDone:
			if err != nil {
				klog.Errorf("kube-controller-manager stopped: %v", err)
			}
		case <-time.After(10 * time.Second):
			klog.Errorf("kube-controller-manager did not stop within 10s")
		}
	})
	klog.Infof("kube-controller-manager started with --controllers=%s (%s)", controllers, time.Since(start).Round(time.Millisecond))

	var schedulerDone, kwokDone chan error
	if whole.nodes > 0 {
		w, err := whole.start(ctx, tmpDir, server, pki, client)
		stopFns = append(stopFns, w.stop)
		if err != nil {
			return fail("%v", err)
		}
		schedulerDone, kwokDone = w.schedulerDone, w.kwok.done
		klog.Infof("kube-scheduler and KWOK started, %d Nodes Ready (%s)", whole.nodes, time.Since(start).Round(time.Millisecond))
	}

	line, _ := json.Marshal(kubeconfigPath)
	srv, _ := json.Marshal(server)
	fmt.Fprintf(jsonOut, "{\"kubeconfig\": %s, \"server\": %s}\n", line, srv)
	jsonOut.Sync()

	// SIGUSR2 compacts etcd at its current revision, so that older resourceVersions
	// and continue tokens become "too old" (410 Gone) as on a long-running cluster.
	compactSignal := make(chan os.Signal, 1)
	signal.Notify(compactSignal, syscall.SIGUSR2)
	defer signal.Stop(compactSignal)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-compactSignal:
				if rev, err := compactEtcd(ctx, etcdURL); err != nil {
					klog.Errorf("etcd compaction: %v", err)
				} else {
					klog.Infof("etcd compacted at revision %d", rev)
				}
			}
		}
	}()

	exit := 0
	select {
	case <-sigCtx.Done():
		klog.Infof("signal received, stopping")
	case err := <-apiserverDone:
		klog.Errorf("kube-apiserver exited: %v", err)
		apiserverDone = closedWith(nil)
		exit = 1
	case err := <-kcmDone:
		klog.Errorf("kube-controller-manager exited: %v", err)
		kcmDone = closedWith(nil)
		exit = 1
	case err := <-schedulerDone:
		klog.Errorf("kube-scheduler exited: %v", err)
		schedulerDone <- err
		exit = 1
	case err := <-kwokDone:
		klog.Errorf("kwok exited: %v", err)
		kwokDone <- err
		exit = 1
	}
	// Hard deadline: never hang on shutdown.
	go func() {
		time.Sleep(20 * time.Second)
		klog.Errorf("shutdown took over 20s, exiting")
		os.RemoveAll(tmpDir)
		os.Exit(1)
	}()
	stopAll()
	klog.Infof("stopped")
	return exit
}

func closedWith(err error) chan error {
	c := make(chan error, 1)
	c <- err
	return c
}

func startAPIServer(ctx context.Context, listener net.Listener, tmpDir string, pki *pkiFiles, etcdURL string, extraArgs []string) (chan error, error) {
	s := apiserveroptions.NewServerRunOptions()
	fs := pflag.NewFlagSet("kube-apiserver", pflag.ContinueOnError)
	for _, f := range s.Flags().FlagSets {
		fs.AddFlagSet(f)
	}
	args := []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--endpoint-reconciler-type=none",
		"--tls-cert-file=" + pki.ServingCert,
		"--tls-private-key-file=" + pki.ServingKey,
		"--client-ca-file=" + pki.CACert,
		"--authorization-mode=Node,RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + pki.SAKey,
		"--service-account-signing-key-file=" + pki.SAKey,
		"--service-cluster-ip-range=10.0.0.0/16",
		"--cert-dir=" + filepath.Join(tmpDir, "apiserver-certs"),
	}
	args = append(args, extraArgs...)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	s.SecureServing.Listener = listener
	s.SecureServing.BindPort = listener.Addr().(*net.TCPAddr).Port

	// NewServerRunOptions registered the kube component (build version, default
	// feature gates) in the default registry, which the controller manager reuses.
	if err := s.GenericServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return nil, err
	}
	rest.SetDefaultWarningHandler(rest.NoWarnings{})

	completed, err := s.Complete(ctx)
	if err != nil {
		return nil, err
	}
	if errs := completed.Validate(); len(errs) != 0 {
		return nil, utilerrors.NewAggregate(errs)
	}
	config, err := apiserverapp.NewConfig(completed)
	if err != nil {
		return nil, err
	}
	completedConfig, err := config.Complete()
	if err != nil {
		return nil, err
	}
	serverChain, err := apiserverapp.CreateServerChain(completedConfig)
	if err != nil {
		return nil, err
	}
	prepared, err := serverChain.PrepareRun()
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		done <- prepared.Run(ctx)
	}()
	return done, nil
}

func waitReady(ctx context.Context, client kubernetes.Interface, done chan error) error {
	return wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		select {
		case err := <-done:
			done <- err
			return false, fmt.Errorf("exited: %v", err)
		default:
		}
		status := 0
		client.CoreV1().RESTClient().Get().AbsPath("/readyz").Do(ctx).StatusCode(&status)
		if status != 200 {
			return false, nil
		}
		if _, err := client.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err != nil {
			return false, nil
		}
		return true, nil
	})
}

// grantRestricted gives the restricted user read access to the usual kinds,
// but not to secrets nor to RBAC objects, so listing those is Forbidden.
func grantRestricted(ctx context.Context, client kubernetes.Interface) error {
	read := []string{"get", "list", "watch"}
	core := []string{"pods", "configmaps", "services", "endpoints", "namespaces", "nodes", "events",
		"persistentvolumeclaims", "persistentvolumes", "replicationcontrollers", "serviceaccounts",
		"limitranges", "resourcequotas", "podtemplates", "componentstatuses"}
	groups := []string{"apps", "batch", "policy", "autoscaling", "networking.k8s.io", "discovery.k8s.io",
		"storage.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io", "coordination.k8s.io",
		"scheduling.k8s.io", "node.k8s.io", "events.k8s.io", "admissionregistration.k8s.io",
		"certificates.k8s.io", "flowcontrol.apiserver.k8s.io", "resource.k8s.io", "storagemigration.k8s.io"}
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "kube-gc-lens:restricted"},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: core, Verbs: read},
			{APIGroups: groups, Resources: []string{"*"}, Verbs: read},
		},
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "kube-gc-lens:restricted"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: restrictedUser}},
	}
	if _, err := client.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	if _, err := client.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

func startControllerManager(ctx context.Context, kubeconfigPath string, pki *pkiFiles, controllers string, extraArgs []string) (chan error, error) {
	s, err := kcmoptions.NewKubeControllerManagerOptions()
	if err != nil {
		return nil, err
	}
	all, disabled, aliases := kcmapp.KnownControllers(), kcmapp.ControllersDisabledByDefault(), kcmapp.ControllerAliases()
	named := s.Flags(all, disabled, aliases)
	fs := pflag.NewFlagSet("kube-controller-manager", pflag.ContinueOnError)
	for _, f := range named.FlagSets {
		fs.AddFlagSet(f)
	}
	args := []string{
		"--kubeconfig=" + kubeconfigPath,
		"--controllers=" + controllers,
		"--leader-elect=false",
		"--secure-port=0",
		"--use-service-account-credentials=false",
		"--service-account-private-key-file=" + pki.SAKey,
		"--root-ca-file=" + pki.CACert,
		"--cluster-signing-cert-file=" + pki.CACert,
		"--cluster-signing-key-file=" + pki.CAKey,
	}
	args = append(args, extraArgs...)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	s.ParsedFlags = &named
	config, err := s.Config(ctx, all, disabled, aliases)
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		done <- kcmapp.Run(ctx, config.Complete())
	}()
	return done, nil
}
