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
#
# Last, the acceptance ports (acceptance/, docs/acceptance.md) are generated from the archetype with
# their own kind and package, their sources laid over the generated project, and verified there: their
# tests beside the archetype's HelmChartTest and OperatorApplicationTests. The files a port keeps from
# the archetype (ARCHETYPE_OWNED) must be what archetype:generate writes, or the check fails with a diff.
# ARCHETYPE_CHECK_ONLY=acceptance runs that step alone, on the repository a previous run installed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mkdir -p "${1:-target/archetype-check}" && cd "${1:-target/archetype-check}" && pwd)
repo=$work/repo
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1)

generate() { # directory under $work, name, then archetype properties
  local dir=$work/$1 name=$2; shift 2
  mkdir -p "$dir"
  # not quiet: the archetype plugin's warnings are what a new user sees first. Offline (-o) once installed:
  # the archetype plugin and everything the projects need are in the seeded repository
  (cd "$dir" && "$root/mvnw" -B -nsu $offline -Dmaven.repo.local="$repo" \
      org.apache.maven.plugins:maven-archetype-plugin:3.4.1:generate \
      -DarchetypeGroupId=dev.kubeloop -DarchetypeArtifactId=kubeloop-operator-archetype \
      -DarchetypeVersion="$version" -DarchetypeCatalog=local \
      -DartifactId="$name" -Dversion=0.1.0-SNAPSHOT "$@") \
      > "$work/generate-$name.log" 2>&1 || { cat "$work/generate-$name.log" >&2; exit 1; }
  # no warning at all: a file set without includes also matches its directory ("Don't override file <dir>",
  # archetype-metadata.xml); without archetypeCatalog=local the plugin warns that the remote catalog lacks it
  if grep -E "Don't override|\[WARNING\]" "$work/generate-$name.log" >&2; then
    echo "archetype-check: archetype:generate warns about the files above" >&2
    exit 1
  fi
  no_template_text "$dir/$name"
}

no_template_text() { # project directory
  # nothing left for Velocity: an unreplaced property or directive would compile or render wrongly
  if grep -rlE '\$\{(symbol_dollar|package|kind|crdGroup|crdVersion|plural)\}|^#(if|else|end|set)' "$1"; then
    echo "archetype-check: unprocessed template text in the files above" >&2
    exit 1
  fi
}

# The scaffolding a port keeps as the archetype writes it (its package's path left out): a port that edits
# one of these has drifted from what a new user generates; anything else in a port is the port's own code.
ARCHETYPE_OWNED=(src/main/java/OperatorApplication.java src/main/java/EmbeddedApiServerConfiguration.java)
# The archetype's tests of the generated project as a whole, run on the port's code: kept from generation.
ARCHETYPE_TESTS=(HelmChartTest.java OperatorApplicationTests.java)

acceptance() { # module under acceptance/, package, then archetype properties
  local module=$1 package=$2; shift 2
  local port=$root/acceptance/$module project=$work/acceptance/$module path=${package//.//}
  generate acceptance "$module" -DgroupId=dev.kubeloop.acceptance -Dpackage="$package" "$@"
  local owned drift=0
  for owned in "${ARCHETYPE_OWNED[@]}"; do
    owned=${owned/java\//java/$path/}
    diff -u "$project/$owned" "$port/$owned" >&2 || { echo "archetype-check: acceptance/$module/$owned" \
        "differs from what archetype:generate writes (above: - generated, + the port)" >&2; drift=1; }
  done
  [ "$drift" = 0 ] || exit 1
  # the port's files replace the generated ones; generated files the port has not (the Validator, the example
  # reconciler's test the port's own replaces) go, but for the archetype's tests of the whole project
  local dir file
  for dir in src/main/java/$path src/test/java/$path src/main/resources examples; do
    for file in "$project/$dir"/*; do
      [ -e "$file" ] || continue # an empty directory
      [ -e "$port/$dir/${file##*/}" ] || [[ " ${ARCHETYPE_TESTS[*]} " == *" ${file##*/} "* ]] || rm -r "$file"
    done
    cp -r "$port/$dir/." "$project/$dir/"
  done
  echo "archetype-check: ./mvnw verify in acceptance/$module, generated from the archetype"
  local started=$SECONDS
  (cd "$project" && ./mvnw -B -o -Dmaven.repo.local="$repo" verify) > "$work/verify-$module.log" 2>&1 \
      || { tail -200 "$work/verify-$module.log" >&2; echo "archetype-check: see $work/verify-$module.log" >&2; exit 1; }
  # the port's tests and the archetype's ran, in the generated project
  for file in "$port"/src/test/java/"$path"/*Test.java "${ARCHETYPE_TESTS[@]}"; do
    file=${file##*/}
    test -s "$project/target/surefire-reports/TEST-$package.${file%.java}.xml"
  done
  echo "archetype-check: acceptance/$module verified in $((SECONDS - started)) s"
}

acceptance_ports() {
  local started=$SECONDS # the CI time this step adds, for docs/acceptance.md
  rm -rf "$work/acceptance"
  acceptance memcached-operator dev.kubeloop.acceptance.memcached -Dkind=Memcached -DcrdGroup=cache.example.com \
      -DcrdVersion=v1alpha1 -Dplural=memcacheds -Dnamespaced=true -Dwebhooks=true
  acceptance webpage-operator dev.kubeloop.acceptance.webpage -Dkind=WebPage -DcrdGroup=sample.javaoperatorsdk \
      -DcrdVersion=v1 -Dplural=webpages -Dnamespaced=true -Dwebhooks=false
  acceptance cronjob-operator dev.kubeloop.acceptance.cronjob -Dkind=CronJob -DcrdGroup=batch.tutorial.kubebuilder.io \
      -DcrdVersion=v1 -Dplural=cronjobs -Dnamespaced=true -Dwebhooks=true
  echo "archetype-check: the three acceptance ports pass their tests and the archetype's in projects generated from it" \
      "($((SECONDS - started)) s)"
}

offline=-o
if [ "${ARCHETYPE_CHECK_ONLY:-}" = acceptance ]; then
  test -d "$repo/dev/kubeloop" || { echo "archetype-check: no installed Kubeloop in $repo: run it whole first" >&2; exit 1; }
  acceptance_ports
  exit 0
fi

rm -rf "$work/repo" "$work/projects"
mkdir -p "$repo" "$work/projects"
if [ -d "$HOME/.m2/repository" ]; then
  tar -C "$HOME/.m2/repository" --exclude=./dev/kubeloop -cf - . | tar -C "$repo" -xf -
fi
test ! -e "$repo/dev/kubeloop"

# -nsu: the SNAPSHOTs are the ones just installed; nothing newer exists anywhere. No test is compiled
# or run here: the build before this one ran them, and a new user's install needs none.
./mvnw -B -q -nsu install -Dmaven.test.skip=true -pl '!benchmarks' -Dmaven.repo.local="$repo"

offline= # the first generation may still fetch the archetype plugin
generate projects greeting-operator -DgroupId=com.example -Dpackage=com.example.greeting -Dkind=Greeting -DcrdGroup=demo.example.com \
    -DcrdVersion=v1alpha1 -Dnamespaced=true -Dwebhooks=true
offline=-o
generate projects cluster-policy-operator -DgroupId=com.example -Dpackage=com.example.policy -Dkind=ClusterPolicy -Dplural=clusterpolicies \
    -DcrdGroup=policy.example.com -DcrdVersion=v1 -Dnamespaced=false -Dwebhooks=false

# init, then add a kind, then its webhooks (docs/getting-started.md), with no hand edit: greeting-operator has
# two kinds from here on, cluster-policy-operator stays the one-kind project.
scaffold() { # project, then the goal and its properties
  local name=$1; shift
  (cd "$work/projects/$name" && ./mvnw -B -q -o -Dmaven.repo.local="$repo" "$@")
}
scaffold greeting-operator kubeloop:create-api -Dkind=Backup
scaffold greeting-operator kubeloop:create-webhook -Dkind=Backup
no_template_text "$work/projects/greeting-operator"
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

acceptance_ports
