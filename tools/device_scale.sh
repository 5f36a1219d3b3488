#!/usr/bin/env bash
# bench/scale_out.py on a 16-core machine without network, in two halves.
#
#   tools/device_scale.sh prepare        # here, with network: wheels + fixtures into .device/ (git-ignored)
#   tools/device_scale.sh run [OPTIONS]  # there, from the repo root with .device/ copied along: installs the
#                                        # wheels into /tmp/site and runs the bench (default options:
#                                        # --workers 1,2,4,8,16 --work 60), its log in $OUT (or .device/out)
#
# The machine is expected to have Python 3.12 (x86-64, glibc) with NumPy, SciPy, pyarrow, Matplotlib, Rich and
# the common pure-Python packages installed (click, cloudpickle, fsspec, Jinja2, msgpack, packaging, psutil,
# PyYAML, sortedcontainers, toolz, urllib3, shellingham, annotated-doc). What it lacks travels as wheels:
# rapier3d and Dask's distributed scheduler with every dependency of theirs outside that set, and typer and
# Rich in the ranges pyproject.toml declares (the command line needs typer's 0.28 series exactly, and Rich
# below 15; a machine's own may be another release). Before the bench,
# `run` lists every requirement of gltf-physics[scale] (version, where found) and stops if the project's
# imports fail.
#
# Environment: PYTHON (default python3) runs pip and the bench; SITE (default /tmp/site) is where `run`
# installs the wheels; GLTF_PHYSICS_FIXTURES (default ../shared/fixtures) is what `prepare` copies.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
SITE=${SITE:-/tmp/site}
# The versions the project is tested with (pyproject.toml: rapier3d 0.36, dask[distributed] 2026.8, typer 0.28).
WHEELS=(rapier3d==0.36.1 dask==2026.8.0 distributed==2026.8.0 partd==1.4.2 locket==1.0.0 tblib==3.2.2
        tornado==6.6.1 zict==3.0.0 typer==0.28.0 rich==14.3.4)

prepare() {
    local fixtures=${GLTF_PHYSICS_FIXTURES:-../shared/fixtures} exclude
    [[ -d $fixtures ]] || { echo "prepare: no fixture library at $fixtures (set GLTF_PHYSICS_FIXTURES)" >&2; exit 2; }
    exclude=$(git rev-parse --git-path info/exclude)
    mkdir -p "$(dirname "$exclude")"
    grep -qxF /.device/ "$exclude" 2>/dev/null || echo /.device/ >>"$exclude"
    rm -rf .device/whl .device/fixtures
    mkdir -p .device/whl
    # manylinux tags down to 2_17 (glibc 2.17): any current x86-64 Linux runs them.
    "$PYTHON" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .device/whl "${WHEELS[@]}"
    cp -a "$fixtures/." .device/fixtures/
    ls -l .device/whl | awk 'NR > 1 {printf "%10d  %s\n", $5, $9}'
    local own travel
    own=$(du -sb .device | cut -f1)
    # What travels besides: tracked files and untracked ones git does not ignore.
    travel=$( (git ls-files -z; git ls-files -z --others --exclude-standard) |
              du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)
    echo "wheels $(du -sh .device/whl | cut -f1), fixtures $(du -sh .device/fixtures | cut -f1);" \
         "$((own / 1048576)) MiB in .device/, $(((own + travel) / 1048576)) MiB with the working tree"
}

run() {
    [[ -d .device/whl && -d .device/fixtures ]] || { echo "run: no .device/ here (tools/device_scale.sh prepare)" >&2; exit 2; }
    local out=${OUT:-.device/out}
    mkdir -p "$out"
    (($#)) || set -- --workers 1,2,4,8,16 --work 60
    "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" \
        .device/whl/*.whl
    export PYTHONPATH="$SITE:$PWD/src" GLTF_PHYSICS_FIXTURES="$PWD/.device/fixtures" PYTHONUNBUFFERED=1
    set -o pipefail
    {
        echo "$(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-); $("$PYTHON" --version)"
        # A distribution missing here stops nothing by itself (a preinstalled package may list one it never
        # imports); the imports after it decide.
        "$PYTHON" tools/device_requirements.py || echo "(continuing: the imports decide)"
        "$PYTHON" -c "import gltf_physics.cli, gltf_physics.scale.cluster, gltf_physics.sim, pyarrow.parquet"
        "$PYTHON" bench/scale_out.py "$@"
    } 2>&1 | tee "$out/scale_out.log"
}

case ${1:-} in
    prepare) prepare ;;
    run) shift; run "$@" ;;
    *) echo "usage: tools/device_scale.sh prepare | run [bench/scale_out.py options]" >&2; exit 2 ;;
esac
