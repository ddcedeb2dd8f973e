#!/usr/bin/env bash
# Checks the Helm chart offline: helm lint, then helm template for every value set in ci/,
# validated against Kubernetes' own schemas (kubernetes-validate --strict, no network), and
# the chart's refusals (fewer than 4 consenters, a consenter's TLS Secret as the admin client CA). Installs helm and kubernetes-validate from the
# package registries on first use (cached under ~/.cache/rubin-orderer).
set -euo pipefail
cd "$(dirname "$0")"
HELM_VERSION=v3.22.0
KUBE_VALIDATE_VERSION=1.37.0
K8S_VERSION=1.37.0
tools=${RUBIN_TOOLS:-$HOME/.cache/rubin-orderer/bin}
mkdir -p "$tools"
export PATH="$tools:$PATH"

# A helm built with `go install` reports its version without the patch level (v3.22).
if ! helm version --short 2>/dev/null | grep -q "^${HELM_VERSION%.*}"; then
  echo "helm/test.sh: installing helm $HELM_VERSION (go install, about a minute)" >&2
  command -v go >/dev/null || { echo "helm/test.sh: needs Go to install helm" >&2; exit 1; }
  GOBIN="$tools" go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
fi
if ! command -v kubernetes-validate >/dev/null \
  || ! kubernetes-validate --version 2>/dev/null | grep -q "$KUBE_VALIDATE_VERSION"; then
  echo "helm/test.sh: installing kubernetes-validate $KUBE_VALIDATE_VERSION" >&2
  python3 -m pip install --quiet --disable-pip-version-check "kubernetes-validate==$KUBE_VALIDATE_VERSION"
fi

passed=0
failed=0
check() {
  local name=$1
  shift
  if "$@" >"/tmp/helm-check.$$" 2>&1; then
    passed=$((passed + 1))
    echo "ok    $name"
  else
    failed=$((failed + 1))
    echo "FAIL  $name"
    sed 's/^/      /' "/tmp/helm-check.$$"
  fi
}

render_and_validate() {
  helm template ci-release rubin-orderer --namespace ordering --kube-version "$K8S_VERSION" -f "$1" \
    | kubernetes-validate --strict --kubernetes-version "$K8S_VERSION" --quiet -
}

refuses_three_nodes() {
  local output
  if output=$(helm template ci-release rubin-orderer --kube-version "$K8S_VERSION" \
    --set-json 'nodes=[{"name":"a","mspSecret":"a","tlsSecret":"a"},{"name":"b","mspSecret":"b","tlsSecret":"b"},{"name":"c","mspSecret":"c","tlsSecret":"c"}]' 2>&1); then
    echo "rendered with 3 consenters"
    return 1
  fi
  grep -q "needs at least 4 consenters" <<<"$output"
}

refuses_admin_ca_of_a_consenter() {
  local output
  if output=$(helm template ci-release rubin-orderer --kube-version "$K8S_VERSION" \
    --set adminClientCASecret=orderer2-tls 2>&1); then
    echo "rendered with a consenter's TLS Secret as the admin client CA"
    return 1
  fi
  grep -q 'adminClientCASecret: "orderer2-tls" is nodes\[orderer2\].tlsSecret' <<<"$output"
}

# The launcher sizes the heap from the plan the chart passes (orderer/docs/MEMORY.md "Sizing";
# HelmMemoryPlanTest checks every value set here fits its memory limit): no heap share of its own.
passes_the_memory_plan() {
  local values=$1 consenters=$2 rendered
  rendered=$(helm template ci-release rubin-orderer --kube-version "$K8S_VERSION" -f "$values")
  if grep -q MaxRAMPercentage <<<"$rendered"; then
    echo "the chart sets a heap share of its own"
    return 1
  fi
  grep -A1 'name: RUBIN_CHANNELS$' <<<"$rendered" | grep -q 'value: "1"' \
    && grep -A1 'name: RUBIN_BLOCK_MAX_BYTES$' <<<"$rendered" | grep -q 'value: "10MB"' \
    && grep -A1 'name: RUBIN_CONSENTERS$' <<<"$rendered" | grep -q "value: \"$consenters\"" \
    || { echo "missing or wrong plan variables:"; grep -A1 'name: RUBIN_' <<<"$rendered"; return 1; }
}

for values in ci/*.yaml; do
  check "helm lint --strict -f $values" helm lint --strict rubin-orderer -f "$values"
  check "helm template -f $values | kubernetes-validate --strict" render_and_validate "$values"
done
check "chart passes the memory plan for 4 consenters" passes_the_memory_plan ci/default.yaml 4
check "chart passes the memory plan for 7 consenters" passes_the_memory_plan ci/seven-nodes-monitored.yaml 7
check "chart refuses fewer than 4 consenters" refuses_three_nodes
check "chart refuses a consenter's TLS Secret as the admin client CA" refuses_admin_ca_of_a_consenter
rm -f "/tmp/helm-check.$$"
echo "helm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
