# Builds Kubernetes binaries from the source package in Debian's archive and caches them: the part of
# scripts/local-apiserver.sh and scripts/local-cluster.sh that fetches, patches and compiles.
# Sourced, not run; the caller defines log and die, and sets CACHE_DIR.
#
#   kube_build NAME...   build the named binaries (kube-apiserver, kubelet, kube-controller-manager,
#                        kube-scheduler, kube-proxy, pause) unless cached with the current recipe; one source
#                        fetch for all of them, under $CACHE_DIR/build.lock
#   kube_cached NAME     true when $CACHE_DIR/bin/NAME was built by the current recipe
#
# A cached binary's NAME.version file names the recipe that built it. Raise KUBE_BUILD_RECIPE
# whenever what is built changes (a patch, a flag): every cache built by an older recipe rebuilds.
#   recipe 1  (no marker) the reflect2 swap only
#   recipe 2  also go-openapi's type validator: an empty string is a string, not null (see below)

KUBE_BUILD_RECIPE=2
KUBE_SOURCE_PACKAGE=kubernetes
KUBE_GO_ROOT=/usr/lib/go-1.19
KUBE_BUILD_PACKAGES=(golang-1.19-go make rsync dpkg-dev golang-github-modern-go-reflect2-dev)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs the Debian packages that are missing (apt-get update once, only when something is).
ensure_packages() {
  local missing=()
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

kube_cached() {
  local bin=$CACHE_DIR/bin/$1
  [ -x "$bin" ] && grep -q "kubeloop build recipe $KUBE_BUILD_RECIPE)" "$bin.version" 2>/dev/null
}

# apt options for a private configuration carrying the deb-src entries, so that /etc/apt stays
# untouched: same mirrors and keyring as the machine's own sources.
private_apt_options() {
  local dir=$1
  printf '%s\n' -o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$dir/sources.list.d" \
    -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o "Dir::Etc::Preferences=/dev/null" \
    -o "Dir::Etc::PreferencesParts=$dir/preferences.d" -o "APT::Sandbox::User=root"
}

# The machine's Debian mirror (deb.debian.org unless its sources name another one); $1 = debian or
# debian-security.
debian_mirror() {
  local archive=$1 found
  found=$(grep -rhoE "https?://[^ ]+/$archive/?( |\$)" /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null \
    | { if [ "$archive" = debian ]; then grep -v security; else cat; fi; } | head -n1 | tr -d ' ' || true)
  found=${found%/}
  echo "${found:-http://deb.debian.org/$archive}"
}

write_deb_src_sources() {
  local dir=$1 mirror security
  mirror=$(debian_mirror debian)
  security=$(debian_mirror debian-security)
  mkdir -p "$dir/sources.list.d" "$dir/preferences.d" "$dir/lists/partial" "$dir/cache/archives/partial"
  cat >"$dir/sources.list.d/kubeloop-deb-src.sources" <<EOF
Types: deb-src
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}

go_platform() {
  case "$(dpkg --print-architecture)" in
    amd64) echo linux/amd64 ;;
    arm64) echo linux/arm64 ;;
    *) die "unsupported architecture $(dpkg --print-architecture)" ;;
  esac
}

# Fetches the source package into $1 and prints the unpacked directory; $2 receives the version.
kube_fetch_source() {
  local work=$1
  write_deb_src_sources "$work/apt"
  local apt_opts
  mapfile -t apt_opts < <(private_apt_options "$work/apt")
  log "fetching the source package '$KUBE_SOURCE_PACKAGE' from Debian's archive"
  apt-get "${apt_opts[@]}" -qq update >&2
  KUBE_SOURCE_VERSION=$(apt-cache "${apt_opts[@]}" showsrc "$KUBE_SOURCE_PACKAGE" | sed -n 's/^Version: //p' | sort -V | tail -n1)
  [ -n "$KUBE_SOURCE_VERSION" ] || die "Debian's archive has no source package '$KUBE_SOURCE_PACKAGE'"
  (cd "$work" && apt-get "${apt_opts[@]}" -qq source "$KUBE_SOURCE_PACKAGE=$KUBE_SOURCE_VERSION" >"$work/apt-source.log" 2>&1) \
    || { tail -n 20 "$work/apt-source.log" >&2; die "apt-get source $KUBE_SOURCE_PACKAGE=$KUBE_SOURCE_VERSION failed"; }
  KUBE_SOURCE_DIR=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name "$KUBE_SOURCE_PACKAGE-*" | head -n1)
  [ -n "$KUBE_SOURCE_DIR" ] || die "no unpacked source under $work"
}

# What upstream's release build (Go 1.15) gets right and Go 1.19 does not, patched in the source.
kube_patch_source() {
  local src=$1
  # The vendored reflect2 1.0.1 crashes on Go >= 1.18 ("fatal error: fault" in mapiterinit on the
  # first CRD create); Debian's reflect2 1.0.2 is API-compatible and knows the newer runtime.
  local reflect2=/usr/share/gocode/src/github.com/modern-go/reflect2
  [ -d "$reflect2" ] || die "$reflect2 missing (package golang-github-modern-go-reflect2-dev)"
  rm -rf "$src/vendor/github.com/modern-go/reflect2"
  cp -r "$reflect2" "$src/vendor/github.com/modern-go/reflect2"
  rm -f "$src/vendor/github.com/modern-go/reflect2/go.mod"

  # go-openapi's type validator takes a value for null when
  #   reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data)), reflect.ValueOf(data))
  # which compares two reflect.Value headers, pointers included. Before Go 1.19 reflect.Zero
  # allocated, so the pointers never matched and only a nil was null. Since Go 1.19 reflect.Zero of
  # a small type points at the runtime's shared zero buffer, and so does an interface holding "":
  # the headers are equal, and every CRD refused `""` in a string field as `must be of type string:
  # "null"`. Upstream go-openapi and kube-openapi later reduced the test to `data == nil`; so here.
  local file patched=0
  for file in "$src/vendor/github.com/go-openapi/validate/type.go" \
      "$src/vendor/k8s.io/kube-openapi/pkg/validation/validate/type.go"; do
    [ -f "$file" ] || continue
    grep -q 'data == nil || reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data)), reflect.ValueOf(data))' "$file" \
      || die "$file: the type validator's null test is not the one this build patches"
    sed -i 's/data == nil || reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data)), reflect.ValueOf(data))/data == nil/' "$file"
    patched=$((patched + 1))
  done
  [ "$patched" -gt 0 ] || die "no go-openapi type validator found to patch under $src/vendor"
}

kube_build() {
  mkdir -p "$CACHE_DIR/bin"
  exec 8>"$CACHE_DIR/build.lock"
  flock 8   # two checkouts building at once would both spend the CPU; the second reuses the first's
  local wanted=() name
  for name in "$@"; do
    if kube_cached "$name"; then
      log "$name cached: $CACHE_DIR/bin/$name ($(cat "$CACHE_DIR/bin/$name.version"))"
    else
      wanted+=("$name")
    fi
  done
  if [ ${#wanted[@]} -eq 0 ]; then
    exec 8>&-
    return 0
  fi
  ensure_packages "${KUBE_BUILD_PACKAGES[@]}"

  local started=$SECONDS work=$CACHE_DIR/build
  rm -rf "$work"
  mkdir -p "$work"
  kube_fetch_source "$work"
  local src=$KUBE_SOURCE_DIR version=$KUBE_SOURCE_VERSION
  kube_patch_source "$src"

  local platform
  platform=$(go_platform)
  mkdir -p "$src/.go/src/k8s.io" "$work/out"
  ln -sfn ../../.. "$src/.go/src/k8s.io/kubernetes"
  local goenv=(env PATH="$KUBE_GO_ROOT/bin:$PATH" GOPATH="$src/.go" GOCACHE="$work/go-build" GOPROXY=off
    CGO_ENABLED=0)
  local plain=()
  for name in "${wanted[@]}"; do
    case "$name" in
      kube-apiserver)
        # kube-apiserver needs the openapi code that Kubernetes' own make generates (GOPATH mode;
        # module mode fails on -mod=vendor).
        log "building kube-apiserver $version for $platform (a few minutes, once; log: $work/make.log)"
        if ! (cd "$src" && "${goenv[@]}" GOFLAGS=-tags=providerless KUBE_BUILD_PLATFORMS="$platform" \
            KUBE_VERBOSE=1 make WHAT=cmd/kube-apiserver >"$work/make.log" 2>&1); then
          tail -n 30 "$work/make.log" >&2
          die "building kube-apiserver failed (full log: $work/make.log)"
        fi
        local built=$src/_output/local/bin/$platform/kube-apiserver
        [ -x "$built" ] || built=$src/_output/bin/kube-apiserver
        [ -x "$built" ] || die "make succeeded but no kube-apiserver binary under $src/_output"
        cp "$built" "$work/out/kube-apiserver"
        ;;
      kubelet | kube-controller-manager | kube-scheduler | kube-proxy) plain+=("$name") ;;
      pause)
        # the pod sandbox's process, for the pause image (scripts/local-cluster.sh): static, no libc
        ensure_packages gcc libc6-dev
        gcc -static -O2 -Wall -o "$work/out/pause" "$src/build/pause/linux/pause.c" >&2 \
          || die "compiling $src/build/pause/linux/pause.c failed"
        ;;
      *) die "unknown Kubernetes binary: $name" ;;
    esac
  done
  if [ ${#plain[@]} -gt 0 ]; then
    # The node's binaries need no generated code: one plain go build in GOPATH mode, one package list.
    local pkgs=() git_version
    for name in "${plain[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$name"); done
    git_version=v$(sed -n 's/.*really\([0-9.]*\).*/\1/p' <<<"$version")
    [ "$git_version" != v ] || git_version=v${version%%[-+]*}
    local vpkg=k8s.io/kubernetes/vendor/k8s.io/component-base/version major minor
    major=$(cut -d. -f1 <<<"${git_version#v}")
    minor=$(cut -d. -f2 <<<"$git_version")
    local ldflags="-s -w -X $vpkg.gitVersion=$git_version -X $vpkg.gitMajor=$major -X $vpkg.gitMinor=$minor"
    ldflags="$ldflags -X $vpkg.gitTreeState=clean -X $vpkg.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    log "building ${plain[*]} $git_version (go build, about 10 min cold on 2 cores; log: $work/go-build.log)"
    if ! (cd "$src/.go/src/k8s.io/kubernetes" && "${goenv[@]}" GO111MODULE=off \
        go build -tags providerless -ldflags "$ldflags" -o "$work/out/" "${pkgs[@]}" >"$work/go-build.log" 2>&1); then
      tail -n 30 "$work/go-build.log" >&2
      die "building ${plain[*]} failed (full log: $work/go-build.log)"
    fi
  fi
  for name in "${wanted[@]}"; do
    [ -x "$work/out/$name" ] || die "no $name was built"
    cp "$work/out/$name" "$CACHE_DIR/bin/$name.tmp"
    mv "$CACHE_DIR/bin/$name.tmp" "$CACHE_DIR/bin/$name"
    local reported=pause   # pause has no --version: it would pause
    [ "$name" = pause ] || reported=$("$CACHE_DIR/bin/$name" --version 2>&1 | head -n1)
    echo "$reported (Debian source $KUBE_SOURCE_PACKAGE $version; kubeloop build recipe $KUBE_BUILD_RECIPE)" \
      >"$CACHE_DIR/bin/$name.version"
  done
  rm -rf "$work"   # ~2 GB of source and build cache; the binaries are all that is kept
  exec 8>&-
  log "built ${wanted[*]} in $((SECONDS - started)) s: $CACHE_DIR/bin"
}
