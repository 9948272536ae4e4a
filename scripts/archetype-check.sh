#!/usr/bin/env bash
# The new-user path, end to end: install Kubeloop from this clone into a fresh local repository (as
# docs/getting-started.md says to, until the artifacts are published), generate a project from the
# archetype in both variants, add a second kind and its webhooks to the first with the documented
# goals (kubeloop:create-api, kubeloop:create-webhook), and build each with its own Maven Wrapper:
# compile, CRD generation, its tests (each reconciler on the test kit, the application on its
# embedded API server, the Helm chart rendered and linted by helm-java, and the webhooks).
#
#   bash scripts/archetype-check.sh [work directory, default target/archetype-check]
#
# The local repository is seeded with ~/.m2/repository without dev/kubeloop (third-party artifacts
# only, to save the downloads), so every Kubeloop artifact the projects use comes from the install.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mkdir -p "${1:-target/archetype-check}" && cd "${1:-target/archetype-check}" && pwd)
repo=$work/repo
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1)

rm -rf "$work/repo" "$work/projects"
mkdir -p "$repo" "$work/projects"
if [ -d "$HOME/.m2/repository" ]; then
  tar -C "$HOME/.m2/repository" --exclude=./dev/kubeloop -cf - . | tar -C "$repo" -xf -
fi
test ! -e "$repo/dev/kubeloop"

# -nsu: the SNAPSHOTs are the ones just installed; nothing newer exists anywhere. No test is compiled
# or run here: the build before this one ran them, and a new user's install needs none.
./mvnw -B -q -nsu install -Dmaven.test.skip=true -pl '!benchmarks' -Dmaven.repo.local="$repo"

generate() { # name, then archetype properties
  local name=$1; shift
  # not quiet: the archetype plugin's warnings are what a new user sees first
  (cd "$work/projects" && "$root/mvnw" -B -nsu -Dmaven.repo.local="$repo" \
      org.apache.maven.plugins:maven-archetype-plugin:3.4.1:generate \
      -DarchetypeGroupId=dev.kubeloop -DarchetypeArtifactId=kubeloop-operator-archetype \
      -DarchetypeVersion="$version" -DarchetypeCatalog=local \
      -DgroupId=com.example -DartifactId="$name" -Dversion=0.1.0-SNAPSHOT "$@") \
      > "$work/generate-$name.log" 2>&1 || { cat "$work/generate-$name.log" >&2; exit 1; }
  # no warning at all: a file set without includes also matches its directory ("Don't override file <dir>",
  # archetype-metadata.xml); without archetypeCatalog=local the plugin warns that the remote catalog lacks it
  if grep -E "Don't override|\[WARNING\]" "$work/generate-$name.log" >&2; then
    echo "archetype-check: archetype:generate warns about the files above" >&2
    exit 1
  fi
  no_template_text "$name"
}

no_template_text() { # project
  # nothing left for Velocity: an unreplaced property or directive would compile or render wrongly
  if grep -rlE '\$\{(symbol_dollar|package|kind|crdGroup|crdVersion|plural)\}|^#(if|else|end|set)' \
      "$work/projects/$1"; then
    echo "archetype-check: unprocessed template text in the files above" >&2
    exit 1
  fi
}

generate greeting-operator -Dpackage=com.example.greeting -Dkind=Greeting -DcrdGroup=demo.example.com \
    -DcrdVersion=v1alpha1 -Dnamespaced=true -Dwebhooks=true
generate cluster-policy-operator -Dpackage=com.example.policy -Dkind=ClusterPolicy -Dplural=clusterpolicies \
    -DcrdGroup=policy.example.com -DcrdVersion=v1 -Dnamespaced=false -Dwebhooks=false

# init, then add a kind, then its webhooks (docs/getting-started.md), with no hand edit: greeting-operator has
# two kinds from here on, cluster-policy-operator stays the one-kind project.
scaffold() { # project, then the goal and its properties
  local name=$1; shift
  (cd "$work/projects/$name" && ./mvnw -B -q -o -Dmaven.repo.local="$repo" "$@")
}
scaffold greeting-operator kubeloop:create-api -Dkind=Backup
scaffold greeting-operator kubeloop:create-webhook -Dkind=Backup
no_template_text greeting-operator
# a second run refuses to overwrite, naming the files
if scaffold greeting-operator kubeloop:create-api -Dkind=Backup > "$work/create-api-again.log" 2>&1 \
    || ! grep -q "Not overwriting" "$work/create-api-again.log"; then
  cat "$work/create-api-again.log" >&2
  echo "archetype-check: create-api overwrote or failed without naming the existing files" >&2
  exit 1
fi

for name in greeting-operator cluster-policy-operator; do
  echo "archetype-check: ./mvnw verify in $name"
  # offline: everything the generated project needs is in the repository by now
  (cd "$work/projects/$name" && ./mvnw -B -o -Dmaven.repo.local="$repo" verify)
  test -s "$work/projects/$name/target/$name-0.1.0-SNAPSHOT.jar"
  ls "$work/projects/$name/chart/files/"*.yml >/dev/null
done
test ! -e "$work/projects/cluster-policy-operator/src/main/java/com/example/policy/ClusterPolicyValidator.java"
# both kinds' CRDs went into the chart, which the tests rendered and linted
test -s "$work/projects/greeting-operator/chart/files/greetings.demo.example.com-v1.yml"
test -s "$work/projects/greeting-operator/chart/files/backups.demo.example.com-v1.yml"
test -s "$work/projects/greeting-operator/target/surefire-reports/TEST-com.example.greeting.BackupReconcilerTest.xml"
test -s "$work/projects/greeting-operator/target/surefire-reports/TEST-com.example.greeting.BackupWebhooksTest.xml"
echo "archetype-check: both generated projects build and pass their tests, the first with a second kind and its webhooks"
