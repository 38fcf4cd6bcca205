#!/usr/bin/env bash
# Generates the TLS material of the Kubernetes API test server (testkit/kubeApiServer) ONCE; the output is committed
# under test/fixtures/kube-api-tls/ so that tests never run openssl. A real cluster serves HTTPS with its own CA, and
# clients (kubectl, @kubernetes/client-node) verify it from the kubeconfig's certificate-authority-data.
#   ca.crt      the test CA (valid 100 years; its key is thrown away: run this script again to change anything)
#   server.crt  the server certificate for 127.0.0.1, ::1 and localhost, signed by the CA (100 years)
#   server.key  its private key (test-only, deliberately public)
# Usage: bash testkit/kubeApiServer/generateTls.sh
set -euo pipefail

out="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../test/fixtures" && pwd)/kube-api-tls"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
days=36500

# EC P-256: accepted by every Go (kubectl 1.20 included) and Node TLS stack, and small.
openssl ecparam -name prime256v1 -genkey -noout -out "$tmp/ca.key"
openssl req -x509 -new -key "$tmp/ca.key" -sha256 -days "$days" -subj "/CN=kube-api-test-ca" \
  -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -addext "subjectKeyIdentifier=hash" \
  -out "$out/ca.crt"

openssl ecparam -name prime256v1 -genkey -noout -out "$tmp/server.ec.key"
# PKCS#8, the form every consumer reads.
openssl pkcs8 -topk8 -nocrypt -in "$tmp/server.ec.key" -out "$out/server.key"
openssl req -new -key "$out/server.key" -subj "/CN=kube-apiserver" -out "$tmp/server.csr"
cat > "$tmp/server.ext" <<'EOF'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost
authorityKeyIdentifier=keyid
subjectKeyIdentifier=hash
EOF
openssl x509 -req -in "$tmp/server.csr" -CA "$out/ca.crt" -CAkey "$tmp/ca.key" \
  -CAserial "$tmp/ca.srl" -CAcreateserial \
  -sha256 -days "$days" -extfile "$tmp/server.ext" -out "$out/server.crt"

chmod 644 "$out/server.key"
openssl verify -CAfile "$out/ca.crt" "$out/server.crt"
