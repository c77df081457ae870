#!/usr/bin/env bash
# Prints the estimated CEL cost of deploy/crd.yaml's rules as kube-apiserver 1.37 estimates it when the CRD
# is written, against its per-rule and per-CRD limits (scripts/crd-cost/main.go, built against the
# apiextensions-apiserver module of Kubernetes v1.37.2 through the Go module proxy). Exit 1: over a limit.
set -euo pipefail
cd "$(dirname "$0")/.."
node -e "const {parseAllDocuments}=require('yaml');const fs=require('fs');const d=parseAllDocuments(fs.readFileSync('deploy/crd.yaml','utf8')).map((x)=>x.toJS());process.stdout.write(JSON.stringify(d.find((x)=>x.kind==='CustomResourceDefinition')))" |
  (cd scripts/crd-cost && go run .)
