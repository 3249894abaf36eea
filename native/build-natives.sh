#!/usr/bin/env bash
# Builds libzstd and liblz4 for every supported platform (or the ones named) from the pinned sources in sources.lock,
# with the pinned zig toolchain in toolchain.lock (linux-x86_64's libzstd: compiled by the pinned gcc, linked by zig).
#
#   build-natives.sh <output-root> [platform...]      platforms: see PLATFORMS below; default: all of them
#
# Output: <output-root>/<platform>/{libzstd.so,liblz4.so | libzstd.dylib,liblz4.dylib | zstd.dll,lz4.dll} and
# natives.properties; <output-root>/licenses/ holds the libraries' licence texts from their source archives;
# native/target/include/ their public headers. Everything is cached below the cache root of tools/cache-dir.sh:
#   sources/   the release tarballs (SHA-256 checked on every use; override with ZSTDJAVA_SOURCE_CACHE)
#   zig-<v>/   the toolchain, unpacked from its wheel (SHA-256 checked before unpacking)
#   natives/<key>/<platform>/   finished libraries, keyed by the hash of every input (sources, toolchain, this script,
#              target); set ZSTDJAVA_NATIVE_CACHE=off to always rebuild (tools/check-reproducible.sh does).
# Environment: ZSTDJAVA_NATIVE_JOBS (parallel targets, default 2), ZSTDJAVA_DEBIAN_MIRROR (source archive mirror).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out_root=${1:?usage: build-natives.sh <output-root> [platform...]}
shift
# shellcheck source=../tools/cache-dir.sh
source "$here/../tools/cache-dir.sh"
cache_root=$ZSTDJAVA_CACHE_ROOT
src_cache=${ZSTDJAVA_SOURCE_CACHE:-$cache_root/sources}
jobs=${ZSTDJAVA_NATIVE_JOBS:-2}

# platform folder (as the Java loader names it) -> zig target
declare -A TARGET=(
  [linux-x86_64]=x86_64-linux-gnu.2.17
  [linux-aarch64]=aarch64-linux-gnu.2.17
  [linux-x86_64-musl]=x86_64-linux-musl
  [linux-aarch64-musl]=aarch64-linux-musl
  [macos-x86_64]=x86_64-macos.11.0
  [macos-aarch64]=aarch64-macos.11.0
  [windows-x86_64]=x86_64-windows-gnu
  [windows-aarch64]=aarch64-windows-gnu
  [linux-ppc64le]=powerpc64le-linux-gnu.2.19
  [linux-s390x]=s390x-linux-gnu.2.17
  [linux-riscv64]=riscv64-linux-gnu.2.27
)
PLATFORMS="linux-x86_64 linux-aarch64 linux-x86_64-musl linux-aarch64-musl macos-x86_64 macos-aarch64 windows-x86_64 windows-aarch64 linux-ppc64le linux-s390x linux-riscv64"

die() { echo "build-natives: $*" >&2; exit 1; }

# the training data of linux-x86_64's profile-guided libzstd (pgo-train.c): files of the repository's testdata/
# (ZSTDJAVA_PGO_DATA names another copy of that folder, as tools/check-reproducible.sh does)
pgo_dir=${ZSTDJAVA_PGO_DATA:-$here/../testdata}
pgo_data=("$pgo_dir/canterbury/alice29.txt" "$pgo_dir/json/statuses.ndjson" "$pgo_dir/json/products.ndjson")

# ---------------------------------------------------------------------------------------------------------------
# toolchain: zig from its PyPI wheel, pinned by version and SHA-256 (toolchain.lock), unpacked once into the cache
lock_value() { sed -n "s/^$1[[:space:]]\+//p" "$here/toolchain.lock" | head -1; }
zig_version=$(lock_value zig.version)
zig_home="$cache_root/zig-$zig_version"
zig="$zig_home/ziglang/zig"

install_zig() {
  [ -x "$zig" ] && return 0
  local arch wheel_platform sha dl
  arch=$(uname -m)
  case "$arch" in
    x86_64) wheel_platform=manylinux_2_12_x86_64; sha=$(lock_value zig.wheel.sha256.x86_64) ;;
    *) die "the pinned zig toolchain is only set up for x86_64 Linux build machines (this is $(uname -s) $arch)" ;;
  esac
  command -v python3 >/dev/null || die "python3 (with pip) is needed once to download the zig toolchain wheel"
  dl="$cache_root/zig-download"
  rm -rf "$dl"; mkdir -p "$dl"
  echo "build-natives: downloading zig $zig_version (ziglang wheel)" >&2
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform "$wheel_platform" --python-version 3.11 --implementation py "ziglang==$zig_version" -d "$dl" >&2 \
    || die "could not download ziglang==$zig_version with pip (python3 -m pip download); check pip's index access"
  local whl actual
  whl=$(ls "$dl"/ziglang-"$zig_version"-*.whl | head -1)
  actual=$(sha256sum "$whl" | cut -d' ' -f1)
  [ "$actual" = "$sha" ] || die "SHA-256 mismatch for $(basename "$whl"): expected $sha (toolchain.lock), got $actual"
  rm -rf "$zig_home.part"; mkdir -p "$zig_home.part"
  python3 "$here/unpack-wheel.py" "$whl" "$zig_home.part"
  chmod +x "$zig_home.part/ziglang/zig"
  rm -rf "$zig_home"; mv "$zig_home.part" "$zig_home"; rm -rf "$dl"
  [ "$("$zig" version)" = "$zig_version" ] || die "unpacked zig does not report version $zig_version"
}

# linux-x86_64's C compiler: the build machine's gcc, pinned by its exact version line and that of the assembler it
# runs (toolchain.lock); checked before that platform is built, never silently replaced by another version
gcc=${ZSTDJAVA_GCC:-gcc}
check_gcc() {
  local want_gcc want_as got_gcc got_as
  want_gcc=$(lock_value gcc.version); want_as=$(lock_value gcc.as.version)
  got_gcc=$("$gcc" --version 2>/dev/null | head -1) || true
  got_as=$("$("$gcc" -print-prog-name=as 2>/dev/null || echo as)" --version 2>/dev/null | head -1) || true
  [ "$got_gcc" = "$want_gcc" ] && [ "$got_as" = "$want_as" ] || die "linux-x86_64's libzstd is compiled by '$want_gcc' with \
'$want_as' (toolchain.lock), this machine has '${got_gcc:-no $gcc}' with '${got_as:-no assembler}'; on Debian 12 \
install them with: apt-get install $(lock_value gcc.debian.packages) (or set ZSTDJAVA_GCC to that gcc)"
}

# ---------------------------------------------------------------------------------------------------------------
# sources: pinned release tarballs, SHA-256 checked
debian_mirror() {
  if [ -n "${ZSTDJAVA_DEBIAN_MIRROR:-}" ]; then echo "${ZSTDJAVA_DEBIAN_MIRROR%/}"; return; fi
  local m
  m=$( { cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n';
         cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p'; } \
       | grep -E '/debian/?$' | head -1)
  [ -n "$m" ] || die "no Debian mirror configured for apt; set ZSTDJAVA_DEBIAN_MIRROR to one (the URL that holds pool/)"
  echo "${m%/}"
}

fetch() { # name version path sha256 -> prints the verified archive path
  local name=$1 version=$2 path=$3 sha=$4 file actual
  file="$src_cache/$(basename "$path")"
  if [ ! -f "$file" ] || [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$sha" ]; then
    echo "build-natives: downloading $name $version sources" >&2
    curl -fsSL --retry 3 -o "$file.part" "$(debian_mirror)/pool/$path"
    mv "$file.part" "$file"
  fi
  actual=$(sha256sum "$file" | cut -d' ' -f1)
  if [ "$actual" != "$sha" ]; then
    rm -f "$file"
    die "SHA-256 mismatch for $(basename "$path"): expected $sha, got $actual"
  fi
  echo "$file"
}

# ---------------------------------------------------------------------------------------------------------------
# one target
#
# Flags (all targets): -O3 (really: see below), hidden visibility with the libraries' own export macros (so every platform exports the
# same API), no debug info, build paths mapped away. Hardening where the target supports it: stack protector (all but
# Windows, whose MinGW runtime here has no __stack_chk_* support), _FORTIFY_SOURCE=2 (glibc and macOS; musl has
# none), full RELRO on ELF. Linked stripped (-s); on macOS zig's linker writes the ad-hoc signature after stripping.
build_target() { # platform out-dir
  local platform=$1 dest=$2 target=${TARGET[$1]}
  local work="$here/target/native-build/$platform"
  rm -rf "$work"; mkdir -p "$work/obj"
  local log="$work/build.log"
  tar -xf "$zstd_archive" -C "$work" && mv "$work"/zstd-* "$work/zstd"
  tar -xf "$lz4_archive" -C "$work" && mv "$work"/lz4-* "$work/lz4"
  export ZIG_GLOBAL_CACHE_DIR="${ZSTDJAVA_ZIG_CACHE:-$cache_root/zig-cache}" ZIG_LOCAL_CACHE_DIR="$work/zig-local"

  # zig cc turns -O3 into its ReleaseFast mode, which hands clang -O2 and keeps frame pointers; -Xclang -O3 and
  # -fomit-frame-pointer give clang what the upstream Makefiles give gcc (-O3, no frame pointers)
  local cflags=(-target "$target" -O3 -Xclang -O3 -fomit-frame-pointer -g0 -fvisibility=hidden -fno-ident "-ffile-prefix-map=$work=." -Wno-unused-command-line-argument)
  local ldflags=(-target "$target" -shared -s)
  local zstd_name lz4_name
  case "$platform" in
    linux-*-musl) cflags+=(-fPIC -fstack-protector-strong); ldflags+=(-Wl,-z,relro,-z,now)
                  zstd_name=libzstd.so; lz4_name=liblz4.so ;;
    linux-*)      cflags+=(-fPIC -fstack-protector-strong -D_FORTIFY_SOURCE=2); ldflags+=(-Wl,-z,relro,-z,now)
                  zstd_name=libzstd.so; lz4_name=liblz4.so ;;
    macos-*)      cflags+=(-fPIC -fstack-protector-strong -D_FORTIFY_SOURCE=2)
                  zstd_name=libzstd.dylib; lz4_name=liblz4.dylib ;;
    windows-*)    cflags+=(-DZSTD_DLL_EXPORT=1 -DLZ4_DLL_EXPORT=1)
                  # lld-link stamps the PE header with the link time; /Brepro puts a hash of the content there instead
                  # (without it two builds of the same inputs differ in those 4 bytes: tools/check-reproducible.sh)
                  ldflags+=(-Wl,/Brepro)
                  zstd_name=zstd.dll; lz4_name=lz4.dll ;;
  esac
  # ppc64le: zig's glibc headers default to IEEE 128-bit long double, whose printf symbols (__vfprintf_chkieee128)
  # exist only from glibc 2.32; the IBM long double ABI of older glibcs keeps __vfprintf_chk@GLIBC_2.17
  case "$target" in powerpc64le-*) cflags+=(-mabi=ibmlongdouble) ;; esac

  # zstd's C compiler: zig's clang, except on linux-x86_64: the pinned gcc (toolchain.lock) with the same flags and
  # hardening, against zig's glibc 2.17 headers (the ones zig's clang uses), so the objects reference only what glibc
  # 2.17 has; zig links them as on every other target. Why: on the C reference clang's zstd executes up to 7.6 % more
  # instructions than gcc's (compression of 128 B and 1 KiB), gcc's is within 0.5 % of the upstream gcc build on every
  # cell (docs/measurements/native-toolchain.md; the all-clang build: CHANGELOG.md, Measurement history). lz4 stays with clang, whose lz4 executes 3-14 % fewer instructions
  # than gcc's on all but two cells.
  # gcc's libzstd is one link-time-optimised object: every object carries gcc's intermediate code (-flto), a relocatable
  # link (gcc -r, one partition) optimises across files and writes plain machine code, which zig's linker then links
  # like any object. With -fno-semantic-interposition the exported functions that call each other (ZSTD_decompressDCtx
  # -> ZSTD_decompress_usingDDict -> ZSTD_decompressBegin_usingDict ...) are called directly and can be inlined instead
  # of going through the PLT. Measured with tools/toolchain-counts.sh: zstd decompression of 128 B of JSON 1,973 ->
  # 1,863 instructions, fastest batch 126.7 -> 116.3 ns; every other cell within 1.4 % in instructions
  # (docs/measurements/native-toolchain.md).
  local zstd_cc=("$zig" cc "${cflags[@]}")
  if [ "$platform" = linux-x86_64 ]; then
    local zinc="$zig_home/ziglang/lib/libc/include"
    zstd_cc=("$gcc" -O3 -march=x86-64 -mtune=generic -fomit-frame-pointer -g0 -fvisibility=hidden -fno-ident
             "-ffile-prefix-map=$work=." -fPIC -fno-semantic-interposition -flto -flto-partition=one
             -fstack-protector-strong -D_FORTIFY_SOURCE=2 -DNDEBUG
             -nostdinc -isystem "$("$gcc" -print-file-name=include)" -isystem "$zinc/x86-linux-gnu"
             -isystem "$zinc/generic-glibc" -isystem "$zinc/x86-linux-any" -isystem "$zinc/any-linux-any"
             -D__GLIBC_MINOR__=17)
  fi

  # zstd: the upstream Makefile's defaults for the shared library (legacy formats v0.5+), multithreaded
  local z="$work/zstd/lib" files=() f
  for f in "$z"/common/*.c "$z"/compress/*.c "$z"/decompress/*.c "$z"/dictBuilder/*.c "$z"/legacy/zstd_v0[5-7].c \
           "$z"/decompress/huf_decompress_amd64.S; do files+=("$f"); done
  local zdefs=(-DZSTD_MULTITHREAD -DXXH_NAMESPACE=ZSTD_ -DDEBUGLEVEL=0 -DZSTD_LEGACY_SUPPORT=5 "-I$z" "-I$z/common" "-I$z/legacy")
  # linux-x86_64 (gcc): profile-guided. A first pass builds an instrumented library, pgo-train.c (slices of the
  # repository's test data, English text and JSON records, 128 B to 256 KiB, levels 3 and 1, through the calls the
  # binding makes) runs on it with address randomisation off, and the second pass compiles with that profile; code the
  # training never ran is optimised as without one (-fprofile-partial-training). The profile follows the CPU's BMI2
  # (libzstd picks its BMI2 decoders at run time), so the build trains only on a CPU that has it.
  # Measured with tools/toolchain-counts.sh against the same build without a profile (docs/measurements/native-toolchain.md):
  # decompression 0.5-15 % faster on every cell but 128 B of text (+2.1 %), the 128 B JSON slice
  # 108.0 -> 90.5 ns; compression -1.8 % to +2.5 %.
  local passes=(final) pass pgo=() objs=() o extra
  [ "${zstd_cc[0]}" = "$zig" ] || passes=(train final)
  for pass in "${passes[@]}"; do
    pgo=()
    if [ "${zstd_cc[0]}" != "$zig" ]; then
      if [ "$pass" = train ]; then pgo=(-fprofile-generate -fprofile-update=single "-fprofile-dir=$work/profile")
      else pgo=(-fprofile-use -fprofile-partial-training "-fprofile-dir=$work/profile" -Wno-missing-profile); fi
    fi
    objs=()
    for f in "${files[@]}"; do
      o="$work/obj/zstd-$(basename "$(dirname "$f")")-$(basename "$f").o"
      extra=()
      if [ "$(basename "$f")" = zstd_decompress_block.c ]; then
        # clang: as upstream, the block decoder without auto-vectorisation. gcc (linux-x86_64, link-time optimised)
        # keeps it: decompression of 128 B of JSON 121.6 -> 116.3 ns fastest batch with it, 64 KiB and 1 MiB unchanged
        # (+0.0 % instructions)
        extra=()
        [ "${zstd_cc[0]}" != "$zig" ] || extra=(-fno-vectorize -fno-slp-vectorize)
        # x86_64: clang's loop unroller makes the sequence decoding loop (ZSTD_decompressSequences_*) spill more of
        # its state to the stack: 137 instructions per sequence against 120 without it (gcc -O3: 124). Measured with
        # tools/toolchain-counts.sh (callgrind, load-independent): zstd decompression of 1 MiB 17.60 M -> 15.51 M
        # instructions (gcc 16.02 M), of 64 KiB 1.158 M -> 1.029 M (gcc 1.062 M); fastest-batch time against gcc
        # +15 % -> +0.3 % (1 MiB), +14 % -> +0.3 % (64 KiB). Only this file: for the whole library the same flag adds
        # 3-14 % instructions to zstd compression of 128 B to 64 KiB. aarch64 keeps the unroller (not measured there).
        case "${zstd_cc[0]}:$target" in "$zig:x86_64-"*) extra+=(-fno-unroll-loops) ;; esac
      fi
      "${zstd_cc[@]}" "${pgo[@]}" "${zdefs[@]}" "${extra[@]}" -c "$f" -o "$o" >>"$log" 2>&1 \
        || { cat "$log" >&2; die "$platform: compiling $(basename "$f") failed"; }
      objs+=("$o")
    done
    if [ "${zstd_cc[0]}" != "$zig" ]; then
      # the link-time optimisation: one relocatable object of plain machine code (hidden symbols stay hidden)
      "${zstd_cc[@]}" "${pgo[@]}" -r -nostdlib -flinker-output=nolto-rel -o "$work/obj/zstd-lto.o" "${objs[@]}" >>"$log" 2>&1 \
        || { cat "$log" >&2; die "$platform: the link-time optimisation of libzstd failed"; }
      objs=("$work/obj/zstd-lto.o")
    fi
    local zld=()
    case "$platform" in
      linux-*) zld=(-Wl,-soname,libzstd.so.1 -pthread) ;;
      macos-*) zld=(-Wl,-install_name,@rpath/libzstd.1.dylib) ;;
    esac
    if [ "$pass" = train ]; then
      mkdir -p "$work/train"
      "$zig" cc "${ldflags[@]}" "${zld[@]}" -o "$work/train/libzstd.so.1" "${objs[@]}" \
        "$("$gcc" -print-file-name=libgcov.a)" >>"$log" 2>&1 \
        || { cat "$log" >&2; die "$platform: linking the instrumented libzstd failed"; }
      "$gcc" -O2 -o "$work/train/pgo-train" "$here/pgo-train.c" "-I$z" "$work/train/libzstd.so.1" \
        "-Wl,-rpath,$work/train" >>"$log" 2>&1 || { cat "$log" >&2; die "$platform: compiling pgo-train.c failed"; }
      setarch "$(uname -m)" -R "$work/train/pgo-train" "${pgo_data[@]}" >>"$log" 2>&1 \
        || { cat "$log" >&2; die "$platform: the profile training run failed"; }
      continue
    fi
    "$zig" cc "${ldflags[@]}" "${zld[@]}" -o "$work/$zstd_name" "${objs[@]}" >>"$log" 2>&1 \
      || { cat "$log" >&2; die "$platform: linking libzstd failed"; }
  done

  # lz4: the block, HC and frame APIs; *_PUBLISH_STATIC_FUNCTIONS exports the fastReset and CDict entry points
  local l="$work/lz4/lib" lobjs=()
  for f in "$l"/lz4.c "$l"/lz4hc.c "$l"/lz4frame.c "$l"/xxhash.c; do
    o="$work/obj/lz4-$(basename "$f").o"
    "$zig" cc "${cflags[@]}" -DLZ4_PUBLISH_STATIC_FUNCTIONS -DLZ4F_PUBLISH_STATIC_FUNCTIONS -DXXH_NAMESPACE=LZ4_ \
      -c "$f" -o "$o" >>"$log" 2>&1 || { cat "$log" >&2; die "$platform: compiling $(basename "$f") failed"; }
    lobjs+=("$o")
  done
  local lld=()
  case "$platform" in
    linux-*) lld=(-Wl,-soname,liblz4.so.1) ;;
    macos-*) lld=(-Wl,-install_name,@rpath/liblz4.1.dylib) ;;
  esac
  "$zig" cc "${ldflags[@]}" "${lld[@]}" -o "$work/$lz4_name" "${lobjs[@]}" >>"$log" 2>&1 \
    || { cat "$log" >&2; die "$platform: linking liblz4 failed"; }

  rm -rf "$dest.part"; mkdir -p "$dest.part"
  cp "$work/$zstd_name" "$work/$lz4_name" "$dest.part/"
  {
    echo "platform=$platform"
    if [ "${zstd_cc[0]}" = "$zig" ]; then echo "toolchain=zig $zig_version ($target)"
    else echo "toolchain=zig $zig_version ($target); libzstd compiled by $(lock_value gcc.version) (link-time and profile-guided optimised)"; fi
    echo "zstd.version=$zstd_version"
    echo "zstd.source.sha256=$zstd_sha"
    echo "lz4.version=$lz4_version"
    echo "lz4.source.sha256=$lz4_sha"
  } > "$dest.part/natives.properties"
  rm -rf "$dest"; mv "$dest.part" "$dest"
  rm -rf "$work"
}

# ---------------------------------------------------------------------------------------------------------------
platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || read -r -a platforms <<< "$PLATFORMS"
for p in "${platforms[@]}"; do [ -n "${TARGET[$p]:-}" ] || die "unknown platform '$p' (supported: $PLATFORMS)"; done

mkdir -p "$src_cache" "$out_root"
while read -r name version path sha; do
  case "$name" in
    zstd) zstd_version=$version; zstd_sha=$sha; zstd_archive=$(fetch "$name" "$version" "$path" "$sha") ;;
    lz4)  lz4_version=$version; lz4_sha=$sha; lz4_archive=$(fetch "$name" "$version" "$path" "$sha") ;;
  esac
done < "$here/sources.lock"
install_zig

# the public headers, for C programs that link against the built libraries (./bench's C reference, the toolchain
# comparison): native/target/include
inc="$here/target/include"
if [ ! -f "$inc/.$zstd_sha-$lz4_sha" ]; then
  rm -rf "$inc"; mkdir -p "$inc"
  tar -xf "$zstd_archive" -C "$inc" --strip-components=2 --wildcards '*/lib/zstd.h' '*/lib/zstd_errors.h' '*/lib/zdict.h'
  tar -xf "$lz4_archive" -C "$inc" --strip-components=2 --wildcards '*/lib/lz4.h' '*/lib/lz4hc.h' '*/lib/lz4frame.h'
  touch "$inc/.$zstd_sha-$lz4_sha"
fi

# every input of a platform's build: the build function with its flags, the target map, both lock files (sources and
# toolchain by SHA-256)
inputs_key=$( { declare -f build_target; declare -p TARGET; cat "$here/sources.lock" "$here/toolchain.lock" \
  "$here/pgo-train.c"; sha256sum "${pgo_data[@]}" 2>/dev/null | cut -d' ' -f1 || true; } \
  | sha256sum | cut -c1-16)
start=$SECONDS
pids=() names=()
wait_one() {
  local pid=${pids[0]} name=${names[0]}
  pids=("${pids[@]:1}"); names=("${names[@]:1}")
  wait "$pid" || die "$name: build failed"
}
for p in "${platforms[@]}"; do
  cached="$cache_root/natives/$inputs_key/$p"
  if [ "${ZSTDJAVA_NATIVE_CACHE:-on}" != off ] && [ -f "$cached/natives.properties" ]; then
    continue
  fi
  if [ "$p" = linux-x86_64 ]; then
    check_gcc
    grep -qw bmi2 /proc/cpuinfo || die "linux-x86_64's libzstd is trained for gcc's profile on a CPU with BMI2 (its \
profile and so the library's bytes depend on it), and this machine's CPU has none: build it on another x86-64 machine"
    for f in "${pgo_data[@]}"; do
      [ -f "$f" ] || die "linux-x86_64's libzstd is trained on the repository's testdata/ and $f is missing (set ZSTDJAVA_PGO_DATA to a copy of that folder)"
    done
  fi
  [ ${#pids[@]} -lt "$jobs" ] || wait_one
  echo "build-natives: building $p (${TARGET[$p]})" >&2
  if [ "${ZSTDJAVA_NATIVE_CACHE:-on}" = off ]; then cached="$out_root/$p"; fi
  build_target "$p" "$cached" &
  pids+=($!); names+=("$p")
done
while [ ${#pids[@]} -gt 0 ]; do wait_one; done
for p in "${platforms[@]}"; do
  if [ "${ZSTDJAVA_NATIVE_CACHE:-on}" != off ]; then
    rm -rf "$out_root/$p"; mkdir -p "$out_root/$p"
    cp "$cache_root/natives/$inputs_key/$p"/* "$out_root/$p/"
  fi
done
# the licence texts that travel with the binaries: zstd (BSD, or GPLv2 at the user's choice) and the lz4 library (BSD)
mkdir -p "$out_root/licenses"
tar -xOf "$zstd_archive" --no-wildcards-match-slash --wildcards '*/LICENSE' > "$out_root/licenses/zstd-LICENSE"
tar -xOf "$zstd_archive" --no-wildcards-match-slash --wildcards '*/COPYING' > "$out_root/licenses/zstd-COPYING"
tar -xOf "$lz4_archive" --wildcards '*/lib/LICENSE' > "$out_root/licenses/lz4-LICENSE"
for f in "$out_root"/licenses/*; do [ -s "$f" ] || die "licence text $(basename "$f") not found in the source archive"; done
echo "build-natives: ${platforms[*]} ready in $out_root ($((SECONDS - start)) s)" >&2
