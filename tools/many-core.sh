#!/usr/bin/env bash
# ./e2e --adaptive, the JMH AdaptiveRandomKeysBench and benchmarks.jar adaptive-keys on a many-core machine that has
# no JDK, Maven or network: the server pinned to CPU 0, the client (and the benchmarks) to every other CPU.
#   here:  tools/many-core.sh pack            after ./mvnw -DskipTests install and ./e2e --help (which packages the
#          benchmark module); runs ../shared/bundle/make-bundle.sh (.bundle/: a trimmed Java runtime, valkey-server,
#          the corpus) and puts the jars these two runs load in .bundle-lib/ (the bundle's own lib.tar.xz, with every
#          client's jars, is too large to carry with the tree in 64 MiB)
#   there: bash tools/many-core.sh run OUT [ROUNDS]    (ROUNDS: 9 by default), carrying .bundle/jre.tar.xz,
#          .bundle/corpus.tar.xz, .bundle/valkey-server.xz and .bundle-lib; about 9 minutes. OUT gets adaptive.md (the
#          report), e2e.log, jmh.txt, jmh.json, adaptive-keys.txt (random keys paired with fixed zstd 3 round by
#          round) and machine.txt (CPUs, pinning, load, how long each part took).
set -u
cmd=${1:-}; shift || true
case "$cmd" in
pack)
  set -e
  [ -f ../shared/bundle/make-bundle.sh ] || { echo "many-core: ../shared/bundle/make-bundle.sh is missing: it makes the runtime and the server binary" >&2; exit 1; }
  [ -f benchmark/target/e2e.classpath ] && [ -f benchmark/target/classes/META-INF/BenchmarkList ] \
    || { echo "many-core: package the benchmark module first (./e2e --help does)" >&2; exit 1; }
  bash ../shared/bundle/make-bundle.sh .bundle
  rm -rf .bundle-lib; mkdir -p .bundle-lib
  # what neither EndToEnd --adaptive nor JMH loads: the other clients, the peers' codecs, the profiler
  skip='/(valkey-glide|byte-buddy|zstd-jni|rxjava|spring-[a-z-]+|aircompressor[a-z0-9-]*|jedis|kryo|reflectasm|jodd-[a-z]+|jline-[a-z]+|snakeyaml|jackson-dataformat-yaml|jakarta\.[a-z.-]+|gson|lz4-java|async-profiler|minlog|objenesis|commons-lang3)-[0-9][^/]*\.jar$'
  tr ':' '\n' < benchmark/target/e2e.classpath | grep -v -E "$skip" | while read -r j; do cp "$j" .bundle-lib/; done
  (cd benchmark/target/classes && zip -q -r ../../../.bundle-lib/benchmark-classes.jar .)
  du -sh .bundle/jre.tar.xz .bundle/corpus.tar.xz .bundle/valkey-server.xz .bundle-lib
  echo "many-core: carry .bundle/jre.tar.xz .bundle/corpus.tar.xz .bundle/valkey-server.xz .bundle-lib; run: bash tools/many-core.sh run \"\$OUT\""
  ;;
run)
  out=${1:?"usage: tools/many-core.sh run OUT [ROUNDS]"}; rounds=${2:-9}; mkdir -p "$out"; w=$(mktemp -d); t0=$(date +%s)
  untar() { if command -v xz >/dev/null; then tar -C "$2" -xJf "$1"; else python3 -c 'import tarfile,sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"; fi; }
  untar .bundle/jre.tar.xz "$w"; mkdir -p "$w/corpus"; untar .bundle/corpus.tar.xz "$w/corpus"
  if command -v xz >/dev/null; then xz -dc .bundle/valkey-server.xz > "$w/valkey-server"
  else python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' .bundle/valkey-server.xz > "$w/valkey-server"; fi
  chmod +x "$w/valkey-server"
  n=$(nproc); cli="1-$((n - 1))"; [ "$n" -ge 2 ] || cli=0
  command -v taskset >/dev/null || { echo "many-core: taskset is missing: the server and the client would share CPUs" >&2; exit 1; }
  java="$w/jre/bin/java"; cp="$(ls "$PWD"/.bundle-lib/*.jar | tr '\n' ':')"
  { echo "cpus: $n, server on 0, client on $cli"; lscpu | grep -E 'Model name|Thread|Core|Socket'; uptime
    echo "unpacked in $(( $(date +%s) - t0 )) s"; } > "$out/machine.txt" 2>&1
  taskset -c 0 "$w/valkey-server" --port 7777 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$w/v.pid" >/dev/null
  sleep 0.5; t1=$(date +%s)
  timeout 380 taskset -c "$cli" "$java" -Xms2g -Xmx6g --enable-native-access=ALL-UNNAMED -Djava.awt.headless=true \
    -Dzstdjava.corpus="$w/corpus" -cp "$cp" dev.zstdjava.bench.e2e.EndToEnd --host 127.0.0.1 --port 7777 \
    --no-progress --adaptive --rounds "$rounds" --out "$out/adaptive.md" > "$out/e2e.log" 2>&1
  echo "e2e rc=$? in $(( $(date +%s) - t1 )) s; load: $(cat /proc/loadavg)" >> "$out/machine.txt"
  kill "$(cat "$w/v.pid")" 2>/dev/null; sleep 0.5; t2=$(date +%s)
  timeout 190 taskset -c "$cli" "$java" --enable-native-access=ALL-UNNAMED -cp "$cp" org.openjdk.jmh.Main \
    AdaptiveRandomKeysBench -f 2 -wi 3 -i 5 -w 1s -r 1s -prof gc -rf json -rff "$out/jmh.json" > "$out/jmh.txt" 2>&1
  echo "jmh rc=$? in $(( $(date +%s) - t2 )) s; load: $(cat /proc/loadavg)" >> "$out/machine.txt"
  t3=$(date +%s)
  timeout 150 taskset -c "$cli" "$java" --enable-native-access=ALL-UNNAMED -cp "$cp" dev.zstdjava.bench.BenchMain \
    adaptive-keys --jvms 3 --rounds 30 --warmup-rounds 10 > "$out/adaptive-keys.txt" 2>&1
  echo "adaptive-keys rc=$? in $(( $(date +%s) - t3 )) s; load: $(cat /proc/loadavg)" >> "$out/machine.txt"
  rm -rf "$w"
  ;;
*)
  echo "usage: tools/many-core.sh pack | run OUT [ROUNDS]" >&2; exit 2 ;;
esac
