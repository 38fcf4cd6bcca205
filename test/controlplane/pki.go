package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/klog/v2"
)

const (
	adminUser      = "kube-gc-lens-admin"
	restrictedUser = "kube-gc-lens-restricted"
	// The controllers get their own user (also in system:masters), so that audit
	// logs tell their requests from those of the admin context's clients.
	controllerManagerUser = "kube-gc-lens-controller-manager"
	// kube-scheduler and KWOK (with --nodes) get theirs too, for the same reason.
	schedulerUser = "kube-gc-lens-scheduler"
	kwokUser      = "kube-gc-lens-kwok"
)

type certPair struct{ Cert, Key []byte }

type pkiFiles struct {
	CACert, CAKey           string
	ServingCert, ServingKey string
	SAKey                   string
	CAData                  []byte
	Admin, Restricted       certPair
	ControllerManager       certPair
	Scheduler, KWOK         certPair
}

func flagSetForKlog() *flag.FlagSet {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	return fs
}

func newKey() (*ecdsa.PrivateKey, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n.Add(n, big.NewInt(1))
}

// writePKI creates a CA, a serving certificate for 127.0.0.1/localhost, the
// client certificates of the admin and restricted users, and a service-account
// signing key.
func writePKI(dir string) (*pkiFiles, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	now := time.Now().Add(-time.Hour)
	caKey, caKeyPEM, err := newKey()
	if err != nil {
		return nil, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "kube-gc-lens-control-plane-ca"},
		NotBefore:             now,
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, _ := x509.ParseCertificate(caDER)
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})

	issue := func(tmpl *x509.Certificate) (certPair, error) {
		key, keyPEM, err := newKey()
		if err != nil {
			return certPair{}, err
		}
		tmpl.SerialNumber = serial()
		tmpl.NotBefore = now
		tmpl.NotAfter = now.Add(365 * 24 * time.Hour)
		tmpl.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
		if err != nil {
			return certPair{}, err
		}
		return certPair{Cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), Key: keyPEM}, nil
	}
	serving, err := issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "kube-apiserver"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")},
	})
	if err != nil {
		return nil, err
	}
	admin, err := issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: adminUser, Organization: []string{"system:masters"}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return nil, err
	}
	restricted, err := issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: restrictedUser},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return nil, err
	}
	kcm, err := issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: controllerManagerUser, Organization: []string{"system:masters"}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return nil, err
	}
	component := func(user string) (certPair, error) {
		return issue(&x509.Certificate{
			Subject:     pkix.Name{CommonName: user, Organization: []string{"system:masters"}},
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		})
	}
	scheduler, err := component(schedulerUser)
	if err != nil {
		return nil, err
	}
	kwok, err := component(kwokUser)
	if err != nil {
		return nil, err
	}
	_, saKeyPEM, err := newKey()
	if err != nil {
		return nil, err
	}

	p := &pkiFiles{
		CACert:            filepath.Join(dir, "ca.crt"),
		CAKey:             filepath.Join(dir, "ca.key"),
		ServingCert:       filepath.Join(dir, "apiserver.crt"),
		ServingKey:        filepath.Join(dir, "apiserver.key"),
		SAKey:             filepath.Join(dir, "sa.key"),
		CAData:            caPEM,
		Admin:             admin,
		Restricted:        restricted,
		ControllerManager: kcm,
		Scheduler:         scheduler,
		KWOK:              kwok,
	}
	for path, data := range map[string][]byte{
		p.CACert: caPEM, p.CAKey: caKeyPEM,
		p.ServingCert: serving.Cert, p.ServingKey: serving.Key,
		p.SAKey: saKeyPEM,
	} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func writeKubeconfig(path, server string, p *pkiFiles) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["kube-gc-lens"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: p.CAData}
	cfg.AuthInfos["admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: p.Admin.Cert, ClientKeyData: p.Admin.Key}
	cfg.AuthInfos["restricted"] = &clientcmdapi.AuthInfo{ClientCertificateData: p.Restricted.Cert, ClientKeyData: p.Restricted.Key}
	cfg.Contexts["admin"] = &clientcmdapi.Context{Cluster: "kube-gc-lens", AuthInfo: "admin", Namespace: "default"}
	cfg.Contexts["restricted"] = &clientcmdapi.Context{Cluster: "kube-gc-lens", AuthInfo: "restricted", Namespace: "default"}
	cfg.CurrentContext = "admin"
	return clientcmd.WriteToFile(*cfg, path)
}

// writeComponentKubeconfig writes the kubeconfig an in-process component (or
// KWOK) uses: its own user, not the admin's.
func writeComponentKubeconfig(path, server, name string, pair certPair, p *pkiFiles) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["kube-gc-lens"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: p.CAData}
	cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{ClientCertificateData: pair.Cert, ClientKeyData: pair.Key}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: "kube-gc-lens", AuthInfo: name}
	cfg.CurrentContext = name
	return clientcmd.WriteToFile(*cfg, path)
}
