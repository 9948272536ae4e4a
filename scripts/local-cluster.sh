#!/usr/bin/env bash
# A real one-node Kubernetes cluster on this machine for Kubeloop's cluster tests (docs/testing.md):
# the chart installed with Helm, the operator and nginx as Pods.
#
# etcd (Debian's etcd-server) on loopback; kube-apiserver, kube-controller-manager, kube-scheduler,
# kubelet and kube-proxy (iptables mode) built once from Debian's Kubernetes source (1.20) and cached
# like scripts/local-apiserver.sh's apiserver (scripts/lib/kubernetes-build.sh); containerd, runc and
# the CNI bridge + host-local plugins from Debian. The API server is bound to and advertised on the
# gateway address of a bridge of its own (pods cannot reach the host's 127.0.0.1). Images are built
# here without a registry (scripts/lib/oci-image.py) and imported into containerd:
#   localhost/pause:kubeloop   pause.c from the Kubernetes source, gcc -static
#   localhost/nginx:kubeloop   a Debian minbase rootfs with nginx-light, serving /usr/share/nginx/html
#   localhost/jre:kubeloop     a Debian minbase rootfs with openjdk-17-jre-headless
#   load-jar adds a jar to the JRE image (the operator's image). The base images' tars are cached.
#
# Everything a start changes on the host is recorded first (sysctls, iptables chains, links, mounts,
# cgroups, directories); stop undoes it and then checks the host against that record.
#
#   scripts/local-cluster.sh build       build and cache the binaries and base images (no-op when cached)
#   scripts/local-cluster.sh images      build and cache the base images only
#   scripts/local-cluster.sh start       start the node (builds first if needed); returns when the
#                                        node is Ready and the kubernetes Service answers
#   scripts/local-cluster.sh load-jar JAR IMAGE
#                                        build IMAGE (localhost/name:tag) = the JRE image + JAR as
#                                        /app/app.jar, run by `java -jar`, and import it
#   scripts/local-cluster.sh kill-container ID
#                                        SIGKILL a container's process (a crash, not a Pod deletion)
#   scripts/local-cluster.sh stop        delete every Pod, stop everything by PID, undo every change
#                                        to the host and check it (state kept: certificates, etcd)
#   scripts/local-cluster.sh status      what runs, where, and the log files
#   scripts/local-cluster.sh kubeconfig  prints the admin kubeconfig's path
#   scripts/local-cluster.sh audit-log   prints the audit log's path (what service accounts wrote, Metadata level)
#   scripts/local-cluster.sh check-host  compare the host with the record taken at start (exit 1 if not the same)
#   scripts/local-cluster.sh clean       stop and delete the state
#
# Environment:
#   KUBELOOP_CACHE_DIR        binary and image cache (default ${XDG_CACHE_HOME:-~/.cache}/kubeloop)
#   KUBELOOP_CLUSTER_DIR      state (default <repository>/target/local-cluster); logs in its logs/
#   KUBELOOP_CLUSTER_BRIDGE   the bridge (default klcbr0)
#   KUBELOOP_CLUSTER_POD_CIDR the pods' /24 on that bridge; its .1 is the API server (default 10.244.0.0/24)
#   KUBELOOP_CLUSTER_SERVICE_CIDR  Service ClusterIPs (default 10.97.0.0/16, the API server's Service .1)
#   KUBELOOP_CLUSTER_READY_TIMEOUT seconds for the node to become Ready (default 180)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${KUBELOOP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kubeloop}
STATE_DIR=${KUBELOOP_CLUSTER_DIR:-$ROOT/target/local-cluster}
BIN_DIR=$CACHE_DIR/bin
IMAGE_DIR=$CACHE_DIR/images
BRIDGE=${KUBELOOP_CLUSTER_BRIDGE:-klcbr0}
POD_CIDR=${KUBELOOP_CLUSTER_POD_CIDR:-10.244.0.0/24}
SERVICE_CIDR=${KUBELOOP_CLUSTER_SERVICE_CIDR:-10.97.0.0/16}
READY_TIMEOUT=${KUBELOOP_CLUSTER_READY_TIMEOUT:-180}
NODE_NAME=kubeloop-node
APISERVER_PORT=6443
NODE_PORTS=32100-32767   # above the loopback ports scripts/local-apiserver.sh picks (20000-31999)

NET_PREFIX=${POD_CIDR%.*}
GATEWAY=$NET_PREFIX.1
SERVICE_IP=$(awk -F'[./]' '{printf "%s.%s.%s.%d", $1, $2, $3, $4 + 1}' <<<"$SERVICE_CIDR")

PKI=$STATE_DIR/pki
LOGS=$STATE_DIR/logs
PIDS=$STATE_DIR/pids
BEFORE=$STATE_DIR/host-before
KUBECONFIG_FILE=$STATE_DIR/kubeconfig
CONTAINERD_SOCK=$STATE_DIR/containerd/containerd.sock

KUBE_BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy pause)
RUNTIME_PACKAGES=(etcd-server etcd-client openssl curl containerd runc containernetworking-plugins iptables
  conntrack debootstrap python3 util-linux iproute2)
# what kubelet, kube-proxy and this script change; recorded at start, restored at stop
SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys
  kernel.keys.root_maxbytes net.ipv4.ip_forward net.bridge.bridge-nf-call-iptables
  net.bridge.bridge-nf-call-ip6tables net.ipv4.conf.all.route_localnet net.netfilter.nf_conntrack_max
  net.netfilter.nf_conntrack_tcp_timeout_established net.netfilter.nf_conntrack_tcp_timeout_close_wait)
# directories kubelet and containerd write whatever they are told; removed at stop unless there before
HOST_DIRS=(/var/lib/kubelet /var/log/pods /var/log/containers /run/containerd /var/lib/cni /run/netns /etc/cni
  /opt/cni /var/lib/containerd /opt/containerd /etc/kubernetes /usr/libexec/kubernetes /var/lib/dockershim)
IMAGE_RECIPE=1   # raise when the base images' recipe changes: cached tars are rebuilt

log() { printf '[local-cluster] %s\n' "$*" >&2; }
die() { printf '[local-cluster] error: %s\n' "$*" >&2; exit 1; }

PID_DIR=$PIDS
# shellcheck source=lib/kubernetes-build.sh
. "$ROOT/scripts/lib/kubernetes-build.sh"
# shellcheck source=lib/local-node.sh
. "$ROOT/scripts/lib/local-node.sh"

[ "$(id -u)" -eq 0 ] || [ "${1:-}" = kubeconfig ] || [ "${1:-}" = status ] \
  || die "needs root: it runs kubelet and containerd and changes the network"

# --- images ------------------------------------------------------------------------------------

image_cached() { [ -f "$IMAGE_DIR/$1.tar" ] && grep -qx "recipe $IMAGE_RECIPE" "$IMAGE_DIR/$1.recipe" 2>/dev/null; }

# A Debian minbase rootfs with the given packages, trimmed of what a container never reads.
debian_rootfs() {
  local dir=$1 include=$2
  rm -rf "$dir"
  debootstrap --variant=minbase --include="$include" bookworm "$dir" "$(debian_mirror debian)" \
    >"$LOGS/debootstrap-$(basename "$dir").log" 2>&1 \
    || { tail -n 20 "$LOGS/debootstrap-$(basename "$dir").log" >&2; die "debootstrap of $dir failed"; }
  rm -rf "$dir"/usr/share/doc/* "$dir"/usr/share/man/* "$dir"/usr/share/locale/* "$dir"/var/cache/apt/*.bin \
    "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/var/log/*.log
}

pack_image() { python3 "$ROOT/scripts/lib/oci-image.py" "$@"; }

build_images() {
  ensure_packages debootstrap python3
  mkdir -p "$IMAGE_DIR" "$LOGS"
  exec 9>"$IMAGE_DIR/build.lock"
  flock 9
  local work=$IMAGE_DIR/work started=$SECONDS
  rm -rf "$work"
  mkdir -p "$work"
  if ! image_cached nginx; then
    log "building localhost/nginx:kubeloop (debootstrap, about a minute)"
    debian_rootfs "$work/nginx" nginx-light
    rm -f "$work/nginx/etc/nginx/sites-enabled/"*
    # like the nginx image the sample defaults to: the page in /usr/share/nginx/html, logs to the container's
    cat >"$work/nginx/etc/nginx/conf.d/default.conf" <<'EOF'
server {
    listen 80 default_server;
    root /usr/share/nginx/html;
    index index.html;
}
EOF
    mkdir -p "$work/nginx/usr/share/nginx/html"
    echo '<html><body>localhost/nginx:kubeloop</body></html>' >"$work/nginx/usr/share/nginx/html/index.html"
    ln -sf /dev/stdout "$work/nginx/var/log/nginx/access.log"
    ln -sf /dev/stderr "$work/nginx/var/log/nginx/error.log"
    pack_image rootfs "$work/nginx" localhost/nginx:kubeloop "$IMAGE_DIR/nginx.tar" \
      --entrypoint '["nginx", "-g", "daemon off;"]'
    echo "recipe $IMAGE_RECIPE" >"$IMAGE_DIR/nginx.recipe"
  fi
  if ! image_cached jre; then
    log "building localhost/jre:kubeloop (debootstrap with openjdk-17-jre-headless, about two minutes)"
    debian_rootfs "$work/jre" openjdk-17-jre-headless
    pack_image rootfs "$work/jre" localhost/jre:kubeloop "$IMAGE_DIR/jre.tar" --entrypoint '["java"]'
    echo "recipe $IMAGE_RECIPE" >"$IMAGE_DIR/jre.recipe"
  fi
  if ! image_cached pause; then
    kube_cached pause || kube_build pause
    rm -rf "$work/pause" && mkdir -p "$work/pause"
    cp "$BIN_DIR/pause" "$work/pause/pause"
    pack_image rootfs "$work/pause" localhost/pause:kubeloop "$IMAGE_DIR/pause.tar" --entrypoint '["/pause"]'
    echo "recipe $IMAGE_RECIPE" >"$IMAGE_DIR/pause.recipe"
  fi
  rm -rf "$work"
  exec 9>&-
  [ $((SECONDS - started)) -lt 2 ] || log "base images built in $((SECONDS - started)) s: $IMAGE_DIR"
}

ctr_() { ctr --address "$CONTAINERD_SOCK" --namespace k8s.io "$@"; }

import_image() {
  ctr_ images import --no-unpack=false "$1" >>"$LOGS/ctr-import.log" 2>&1 \
    || { tail -n 10 "$LOGS/ctr-import.log" >&2; die "ctr images import $1 failed"; }
}

cmd_load_jar() {
  local jar=${1:-} image=${2:-}
  [ -f "$jar" ] && [ -n "$image" ] || die "usage: load-jar JAR localhost/NAME:TAG"
  running_pid containerd >/dev/null || die "containerd is not running: start the cluster first"
  local out=$STATE_DIR/images/$(tr '/:' '__' <<<"$image").tar
  mkdir -p "$STATE_DIR/images"
  pack_image extend "$IMAGE_DIR/jre.tar" "$image" "$out" --file "$jar:/app/app.jar:0644" --workdir /app \
    --entrypoint '["java", "-jar", "/app/app.jar"]'
  import_image "$out"
  log "imported $image ($(du -h "$jar" | cut -f1) jar on localhost/jre:kubeloop)"
}

cmd_build() {
  kube_build "${KUBE_BINARIES[@]}"
  build_images
}

# --- the host: record, restore, check ----------------------------------------------------------

sysctl_path() { echo "/proc/sys/${1//.//}"; }

# What the check compares: everything start may change, in a stable text form.
host_snapshot() {
  local name tool table
  echo "## sysctls"
  for name in "${SYSCTLS[@]}"; do
    if [ -r "$(sysctl_path "$name")" ]; then echo "$name=$(cat "$(sysctl_path "$name")")"; fi
  done
  for tool in iptables ip6tables; do
    for table in filter nat mangle raw; do
      echo "## $tool -t $table"
      "$tool" -w -t "$table" -S 2>/dev/null | sort || true
    done
  done
  echo "## links"
  ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort
  echo "## mounts"
  awk '{print $5}' /proc/self/mountinfo | sort
  echo "## cgroups"
  find /sys/fs/cgroup -mindepth 2 -maxdepth 2 -type d 2>/dev/null | sort
  echo "## directories"
  for name in "${HOST_DIRS[@]}"; do [ -e "$name" ] && echo "$name"; done
  return 0
}

record_host() {
  [ -f "$BEFORE/snapshot" ] && return 0   # a start after a start without stop keeps the first record
  mkdir -p "$BEFORE"
  host_snapshot >"$BEFORE/snapshot.tmp"
  mv "$BEFORE/snapshot.tmp" "$BEFORE/snapshot"
}

cmd_check_host() {
  [ -f "$BEFORE/snapshot" ] || { log "no record of the host (not started)"; return 0; }
  local now
  now=$(host_snapshot)
  if diff -u "$BEFORE/snapshot" - <<<"$now" >"$STATE_DIR/host-diff" 2>&1; then
    log "host as before the start: sysctls, iptables, links, mounts, cgroups, directories"
    return 0
  fi
  cat "$STATE_DIR/host-diff" >&2
  die "the host differs from the record taken at start (above; $STATE_DIR/host-diff)"
}

recorded_sysctl() { sed -n "s/^$1=//p" "$BEFORE/snapshot"; }

set_sysctl() {
  local path
  path=$(sysctl_path "$1")
  [ -w "$path" ] || die "cannot set $1"
  echo "$2" >"$path"
}

restore_sysctls() {
  local name value
  for name in "${SYSCTLS[@]}"; do
    value=$(recorded_sysctl "$name")
    [ -n "$value" ] || continue
    [ "$(cat "$(sysctl_path "$name")")" = "$value" ] || { echo "$value" >"$(sysctl_path "$name")"; log "restored $name=$value"; }
  done
}

# Chains named KUBE-*, CNI-* or KUBELOOP-* that were not there before (kubelet's, kube-proxy's,
# the CNI plugins', ours): every rule jumping to them is deleted, then they are flushed and deleted.
restore_iptables() {
  local tool table chain rule
  for tool in iptables ip6tables; do
    for table in filter nat mangle raw; do
      local before ours=()
      before=$(sed -n "/^## $tool -t $table\$/,/^## /p" "$BEFORE/snapshot" | awk '$1 == "-N" {print $2}')
      while read -r chain; do
        [ -n "$chain" ] || continue
        grep -qx -- "$chain" <<<"$before" || ours+=("$chain")
      done < <("$tool" -w -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^(KUBE-|CNI-|KUBELOOP-)/ {print $2}')
      [ ${#ours[@]} -gt 0 ] || continue
      local pattern
      pattern=$(printf '%s|' "${ours[@]}")
      pattern="-j (${pattern%|})( |\$)"
      while read -r rule; do
        [ -n "$rule" ] || continue
        eval "\"$tool\" -w -t \"$table\" -D ${rule#-A }" || log "could not delete: $tool -t $table $rule"
      done < <("$tool" -w -t "$table" -S 2>/dev/null | grep -E -- "^-A " | grep -E -- "$pattern" || true)
      for chain in "${ours[@]}"; do "$tool" -w -t "$table" -F "$chain"; done
      for chain in "${ours[@]}"; do "$tool" -w -t "$table" -X "$chain"; done
      log "removed $tool -t $table chains: ${ours[*]}"
    done
  done
}

# --- network -----------------------------------------------------------------------------------

setup_network() {
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    ip link add "$BRIDGE" type bridge
    log "created bridge $BRIDGE"
  fi
  ip addr show dev "$BRIDGE" | grep -q "inet $GATEWAY/" || ip addr add "$GATEWAY/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  # Services' addresses go to the bridge, never out of the machine, also before kube-proxy's rules exist
  ip route replace "$SERVICE_CIDR" dev "$BRIDGE" src "$GATEWAY"
  set_sysctl net.ipv4.ip_forward 1
  [ -e "$(sysctl_path net.bridge.bridge-nf-call-iptables)" ] || modprobe br_netfilter 2>/dev/null || true
  [ -e "$(sysctl_path net.bridge.bridge-nf-call-iptables)" ] || die "br_netfilter is not available"
  set_sysctl net.bridge.bridge-nf-call-iptables 1
  # Pods reach each other, Services and this host, nothing beyond: refused, not forwarded out.
  iptables -w -N KUBELOOP-EGRESS 2>/dev/null || iptables -w -F KUBELOOP-EGRESS
  iptables -w -A KUBELOOP-EGRESS -i "$BRIDGE" ! -o "$BRIDGE" -j REJECT
  iptables -w -C FORWARD -j KUBELOOP-EGRESS 2>/dev/null || iptables -w -I FORWARD 1 -j KUBELOOP-EGRESS
  mkdir -p "$STATE_DIR/cni/net.d" "$STATE_DIR/cni/ipam"
  # no ipMasq: pods talk to each other, to Services and to the API server on the gateway, never out
  cat >"$STATE_DIR/cni/net.d/10-kubeloop.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "kubeloop-cluster",
  "plugins": [{
    "type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": false, "hairpinMode": true,
    "ipam": {"type": "host-local", "dataDir": "$STATE_DIR/cni/ipam",
             "ranges": [[{"subnet": "$POD_CIDR", "gateway": "$GATEWAY"}]], "routes": [{"dst": "0.0.0.0/0"}]}
  }]
}
EOF
}

# --- certificates, kubeconfigs, configuration ----------------------------------------------------

ensure_pki() {
  [ -f "$PKI/done" ] && return 0
  rm -rf "$PKI"
  mkdir -p "$PKI"
  chmod 700 "$PKI"
  log "creating certificates and service-account keys in $PKI"
  (
    cd "$PKI"
    pki_ca kubeloop-local-cluster-ca
    pki_cert apiserver /CN=kube-apiserver \
      "subjectAltName=IP:$GATEWAY,IP:$SERVICE_IP,IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local" \
      "extendedKeyUsage=serverAuth" "keyUsage=digitalSignature,keyEncipherment"
    local client=("extendedKeyUsage=clientAuth" "keyUsage=digitalSignature,keyEncipherment")
    pki_cert admin /O=system:masters/CN=kubeloop-admin "${client[@]}"
    pki_cert apiserver-kubelet-client /O=system:masters/CN=kube-apiserver-kubelet-client "${client[@]}"
    pki_cert kube-controller-manager /CN=system:kube-controller-manager "${client[@]}"
    pki_cert kube-scheduler /CN=system:kube-scheduler "${client[@]}"
    pki_cert kube-proxy /CN=system:kube-proxy "${client[@]}"
    pki_cert kubelet "/O=system:nodes/CN=system:node:$NODE_NAME" "${client[@]}"
    pki_sa_keys
    touch done
  )
}

write_kubeconfig() { # file, certificate name
  local ca crt key
  ca=$(base64 -w0 <"$PKI/ca.crt")
  crt=$(base64 -w0 <"$PKI/$2.crt")
  key=$(base64 -w0 <"$PKI/$2.key")
  (umask 077; : >"$1.tmp")   # a umask set here would reach every daemon started after (containerd's rootfs)
  cat >>"$1.tmp" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: kubeloop-cluster
  cluster:
    server: https://$GATEWAY:$APISERVER_PORT
    certificate-authority-data: $ca
users:
- name: $2
  user:
    client-certificate-data: $crt
    client-key-data: $key
contexts:
- name: kubeloop-cluster
  context:
    cluster: kubeloop-cluster
    user: $2
    namespace: default
current-context: kubeloop-cluster
EOF
  mv "$1.tmp" "$1"
}

write_configs() {
  mkdir -p "$STATE_DIR/config"
  local name
  for name in kube-controller-manager kube-scheduler kube-proxy kubelet; do
    write_kubeconfig "$STATE_DIR/config/$name.kubeconfig" "$name"
  done
  write_kubeconfig "$KUBECONFIG_FILE" admin
  # No DNS server here. Without a nameserver containerd would give pods the host's, outside the
  # machine; the gateway refuses port 53 at once, so a lookup (the JDK's HTTPS server resolves every
  # client's address) fails in a millisecond instead of timing out.
  printf 'nameserver %s\noptions timeout:1 attempts:1\n' "$GATEWAY" >"$STATE_DIR/config/resolv.conf"
  cat >"$STATE_DIR/config/containerd.toml" <<EOF
version = 2
root = "$STATE_DIR/containerd/root"
state = "$STATE_DIR/containerd/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]
[grpc]
  address = "$CONTAINERD_SOCK"
[ttrpc]
  address = "$CONTAINERD_SOCK.ttrpc"
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "$STATE_DIR/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "localhost/pause:kubeloop"
  # this VM's root lacks CAP_SYS_RESOURCE: without it every sandbox fails to start
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        BinaryName = "/usr/sbin/runc"
        Root = "$STATE_DIR/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE_DIR/cni/net.d"
EOF
  cat >"$STATE_DIR/config/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $GATEWAY
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $PKI/ca.crt}
authorization: {mode: Webhook}
cgroupDriver: cgroupfs
failSwapOn: false
clusterDomain: cluster.local
resolvConf: $STATE_DIR/config/resolv.conf
# the images are imported, never pulled: image GC must not remove them
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 200Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 2%}
serializeImagePulls: false
EOF
}

# --- processes ---------------------------------------------------------------------------------

await() { # description, seconds, command...
  local what=$1 seconds=$2 deadline
  shift 2
  deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "$what: not within $seconds s (logs: $LOGS)"
    sleep 0.5
  done
}

kubectl_() { kubectl --kubeconfig "$KUBECONFIG_FILE" "$@"; }

ensure_ports() {
  if [ ! -f "$STATE_DIR/ports" ]; then
    local a b
    a=$((20000 + RANDOM % 12000))
    b=$((a + 1))
    printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\n' "$a" "$b" >"$STATE_DIR/ports"
  fi
  # shellcheck disable=SC1091
  . "$STATE_DIR/ports"
}

start_etcd() {
  running_pid etcd >/dev/null && return 0
  mkdir -p "$STATE_DIR/etcd"
  chmod 700 "$STATE_DIR/etcd"
  spawn etcd etcd --name kubeloop-cluster --data-dir "$STATE_DIR/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "kubeloop-cluster=http://127.0.0.1:$ETCD_PEER_PORT" \
    --listen-metrics-urls "" --logger zap --log-level warn
  await "etcd healthy" 30 env ETCDCTL_API=3 etcdctl --endpoints="http://127.0.0.1:$ETCD_PORT" endpoint health
}

apiserver_ready() {
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" \
    --key "$PKI/admin.key" "https://$GATEWAY:$APISERVER_PORT/readyz")" = 200 ]
}

# The audit log keeps what service accounts write (Metadata level: who, from which Pod IP, what,
# when), for the cluster tests that count which replica wrote what; the components' own writes
# (kubelet, controller-manager, scheduler) would drown it and are not logged. The log backend
# blocks rather than drop an event.
write_audit_policy() {
  cat >"$STATE_DIR/config/audit-policy.yaml" <<EOF
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
  userGroups: ["system:serviceaccounts"]
  verbs: [create, update, patch, delete, deletecollection]
- level: None
EOF
}

start_apiserver() {
  running_pid kube-apiserver >/dev/null && return 0
  write_audit_policy
  spawn kube-apiserver "$BIN_DIR/kube-apiserver" \
    --audit-policy-file="$STATE_DIR/config/audit-policy.yaml" --audit-log-path="$LOGS/audit.log" \
    --audit-log-format=json --audit-log-maxsize=1024 --audit-log-maxbackup=1 \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --bind-address="$GATEWAY" --advertise-address="$GATEWAY" --secure-port="$APISERVER_PORT" --insecure-port=0 \
    --cert-dir="$PKI" --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --client-ca-file="$PKI/ca.crt" \
    --kubelet-client-certificate="$PKI/apiserver-kubelet-client.crt" \
    --kubelet-client-key="$PKI/apiserver-kubelet-client.key" \
    --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --service-cluster-ip-range="$SERVICE_CIDR" --service-node-port-range="$NODE_PORTS" \
    --kubelet-preferred-address-types=InternalIP --allow-privileged=true --profiling=false --v=1
  await "kube-apiserver ready" 90 apiserver_ready
  log "kube-apiserver https://$GATEWAY:$APISERVER_PORT ready"
}

start_controllers() {
  running_pid kube-controller-manager >/dev/null || spawn kube-controller-manager "$BIN_DIR/kube-controller-manager" \
    --kubeconfig="$STATE_DIR/config/kube-controller-manager.kubeconfig" \
    --authentication-kubeconfig="$STATE_DIR/config/kube-controller-manager.kubeconfig" \
    --authorization-kubeconfig="$STATE_DIR/config/kube-controller-manager.kubeconfig" \
    --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" \
    --use-service-account-credentials=true --service-cluster-ip-range="$SERVICE_CIDR" \
    --flex-volume-plugin-dir="$STATE_DIR/kubelet-volume-plugins" \
    --cluster-signing-cert-file="$PKI/ca.crt" --cluster-signing-key-file="$PKI/ca.key" \
    --leader-elect=false --bind-address=127.0.0.1 --port=0 --secure-port=10257 --profiling=false --v=1
  running_pid kube-scheduler >/dev/null || spawn kube-scheduler "$BIN_DIR/kube-scheduler" \
    --kubeconfig="$STATE_DIR/config/kube-scheduler.kubeconfig" \
    --authentication-kubeconfig="$STATE_DIR/config/kube-scheduler.kubeconfig" \
    --authorization-kubeconfig="$STATE_DIR/config/kube-scheduler.kubeconfig" \
    --leader-elect=false --bind-address=127.0.0.1 --port=0 --secure-port=10259 --profiling=false --v=1
}

start_containerd() {
  running_pid containerd >/dev/null && return 0
  mkdir -p "$STATE_DIR/containerd" "$STATE_DIR/runc"
  spawn containerd containerd --config "$STATE_DIR/config/containerd.toml"
  await "containerd answering" 30 ctr --address "$CONTAINERD_SOCK" version
  local image
  for image in pause nginx jre; do import_image "$IMAGE_DIR/$image.tar"; done
  log "containerd $CONTAINERD_SOCK, images: pause, nginx, jre"
}

start_kubelet() {
  running_pid kubelet >/dev/null && return 0
  spawn kubelet "$BIN_DIR/kubelet" --config="$STATE_DIR/config/kubelet.yaml" \
    --kubeconfig="$STATE_DIR/config/kubelet.kubeconfig" --root-dir="$STATE_DIR/kubelet" \
    --cert-dir="$STATE_DIR/kubelet-pki" --volume-plugin-dir="$STATE_DIR/kubelet-volume-plugins" \
    --hostname-override="$NODE_NAME" --node-ip="$GATEWAY" \
    --container-runtime=remote --container-runtime-endpoint="unix://$CONTAINERD_SOCK" \
    --runtime-request-timeout=5m --pod-infra-container-image=localhost/pause:kubeloop --v=1
}

start_proxy() {
  running_pid kube-proxy >/dev/null && return 0
  # NodePorts only on the gateway (not loopback, so no route_localnet) and no conntrack sysctls
  spawn kube-proxy "$BIN_DIR/kube-proxy" --kubeconfig="$STATE_DIR/config/kube-proxy.kubeconfig" \
    --hostname-override="$NODE_NAME" --proxy-mode=iptables --cluster-cidr="$POD_CIDR" \
    --nodeport-addresses="$GATEWAY/32" --conntrack-max-per-core=0 --conntrack-tcp-timeout-established=0 \
    --conntrack-tcp-timeout-close-wait=0 --metrics-bind-address=127.0.0.1:10249 \
    --healthz-bind-address=127.0.0.1:10256 --v=1
}

node_ready() {
  kubectl_ get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' | grep -qx True
}

# The kubernetes Service answers through kube-proxy's rules on its ClusterIP, from the host.
service_routes() {
  curl -s -o /dev/null --max-time 2 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
    --resolve "kubernetes.default.svc:443:$SERVICE_IP" https://kubernetes.default.svc/readyz
}

default_service_account() { kubectl_ get serviceaccount default -n default; }

cmd_start() {
  local started=$SECONDS
  ensure_packages "${RUNTIME_PACKAGES[@]}"
  cmd_build
  mkdir -p "$STATE_DIR" "$LOGS" "$PIDS"
  record_host
  ensure_ports
  ensure_pki
  write_configs
  setup_network
  start_etcd
  start_apiserver
  start_controllers
  start_containerd
  start_kubelet
  start_proxy
  await "node $NODE_NAME Ready" "$READY_TIMEOUT" node_ready
  await "the kubernetes Service routed by kube-proxy" 60 service_routes
  await "the default ServiceAccount (token controller)" 60 default_service_account
  log "ready in $((SECONDS - started)) s; KUBECONFIG=$KUBECONFIG_FILE"
}

# --- stop ----------------------------------------------------------------------------------------

# Pods first, while kubelet runs: it stops their containers and tears their network down through
# the CNI plugins. The controllers are stopped before, so nothing recreates them.
delete_pods() {
  running_pid kubelet >/dev/null && running_pid kube-apiserver >/dev/null && running_pid containerd >/dev/null \
    || return 0
  kubectl_ delete pods --all --all-namespaces --grace-period=0 --force --wait=false >/dev/null 2>&1 || true
  local deadline=$((SECONDS + 90))
  while [ -n "$(ctr_ tasks ls -q 2>/dev/null)" ]; do
    [ $SECONDS -lt $deadline ] || { log "containers still running after 90 s: $(ctr_ tasks ls -q | tr '\n' ' ')"; break; }
    sleep 0.5
  done
}

# Containers kubelet did not stop: killed through runc's state under ours, their shims by their
# containerd address.
kill_leftovers() {
  local id pid
  if [ -d "$STATE_DIR/runc/k8s.io" ]; then
    for id in $(runc --root "$STATE_DIR/runc/k8s.io" list -q 2>/dev/null); do
      runc --root "$STATE_DIR/runc/k8s.io" kill "$id" KILL 2>/dev/null || true
      runc --root "$STATE_DIR/runc/k8s.io" delete --force "$id" 2>/dev/null || true
    done
  fi
  # the shims our containerd started name its socket, which is in our state directory
  for pid in $(pgrep -f "containerd-shim-runc-v2 .*-address $CONTAINERD_SOCK" || true); do
    stop_pid containerd-shim "$pid" 5
  done
}

unmount_ours() {
  local point
  # deepest first; our state directory, and network namespaces that were not there before
  while read -r point; do
    [ -n "$point" ] || continue
    umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null || log "could not unmount $point"
  done < <(awk '{print $5}' /proc/self/mountinfo | awk -v dir="$STATE_DIR/" 'index($0, dir) == 1' | sort -r)
  while read -r point; do
    [ -n "$point" ] || continue
    grep -qxF "$point" <(sed -n '/^## mounts$/,/^## /p' "$BEFORE/snapshot") && continue
    umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null || true
    rm -f "$point"
  done < <(awk '{print $5}' /proc/self/mountinfo | grep -E '^/(var/)?run/netns/' | sort -r)
}

remove_cgroups() {
  local dir
  while read -r dir; do
    [ -n "$dir" ] || continue
    find "$dir" -depth -type d -exec rmdir {} \; 2>/dev/null || true
    [ ! -d "$dir" ] || log "could not remove cgroup $dir"
  done < <(find /sys/fs/cgroup -mindepth 2 -maxdepth 2 -type d \( -name kubepods -o -name k8s.io -o -name kubepods.slice \) \
    2>/dev/null | while read -r d; do grep -qxF "$d" "$BEFORE/snapshot" || echo "$d"; done)
}

remove_dirs() {
  local dir
  for dir in "${HOST_DIRS[@]}"; do
    [ -e "$dir" ] || continue
    sed -n '/^## directories$/,$p' "$BEFORE/snapshot" | grep -qxF "$dir" && continue
    rm -rf "$dir"
    log "removed $dir"
  done
}

cmd_stop() {
  [ -d "$PIDS" ] || return 0
  stop_process kube-controller-manager
  stop_process kube-scheduler
  delete_pods
  stop_process kube-proxy
  stop_process kubelet 20
  stop_process containerd 20
  kill_leftovers
  stop_process kube-apiserver
  stop_process etcd
  if [ -f "$BEFORE/snapshot" ]; then
    unmount_ours
    remove_cgroups
    restore_iptables
    ip link show "$BRIDGE" >/dev/null 2>&1 && ip link delete "$BRIDGE" && log "deleted bridge $BRIDGE"
    restore_sysctls
    remove_dirs
    cmd_check_host
    rm -f "$BEFORE/snapshot"
  fi
}

cmd_status() {
  local rc=0 pid name
  if [ ! -d "$PIDS" ]; then
    echo "not started (state: $STATE_DIR)"
    return 3
  fi
  for name in etcd kube-apiserver kube-controller-manager kube-scheduler containerd kubelet kube-proxy; do
    if pid=$(running_pid "$name"); then printf '%-24s running, PID %s\n' "$name:" "$pid"; else printf '%-24s stopped\n' "$name:"; rc=3; fi
  done
  echo "API server:              https://$GATEWAY:$APISERVER_PORT (Service $SERVICE_IP)"
  echo "network:                 bridge $BRIDGE, pods $POD_CIDR, services $SERVICE_CIDR"
  if [ $rc -eq 0 ]; then
    echo "node:                    $(kubectl_ get node "$NODE_NAME" --no-headers 2>/dev/null || echo unknown)"
    echo "pods:                    $(kubectl_ get pods -A --no-headers 2>/dev/null | wc -l)"
  fi
  echo "kubeconfig:              $KUBECONFIG_FILE"
  echo "logs:                    $LOGS/"
  return $rc
}

case "${1:-}" in
  build) cmd_build ;;
  images) build_images ;;
  start) cmd_start ;;
  load-jar) shift; cmd_load_jar "$@" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  kubeconfig) echo "$KUBECONFIG_FILE" ;;
  audit-log) echo "$LOGS/audit.log" ;;
  check-host) cmd_check_host ;;
  kill-container)
    [ -n "${2:-}" ] || die "usage: kill-container ID (a Pod's containerID without containerd://)"
    ctr_ tasks kill --signal SIGKILL "${2#containerd://}"
    log "SIGKILL sent to container ${2#containerd://}"
    ;;
  clean) cmd_stop; rm -rf "$STATE_DIR"; log "removed $STATE_DIR" ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
