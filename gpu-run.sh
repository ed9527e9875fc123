#!/usr/bin/env bash
# temporary: how often the side streams are idle when a collect starts, and what a stream query costs under load
export NCCL_NVLS_ENABLE=0
cuda=$(cd "$(dirname "$(command -v nvcc)")/.." && pwd)
rm -rf /tmp/ptree && mkdir /tmp/ptree && tar --exclude="./build*" --exclude=./.git -cf - . | tar -xf - -C /tmp/ptree
cp fence_probe.c.tmp /tmp/ptree/core/fence.c
(cd /tmp/ptree && meson setup /tmp/build-p -Dtests=disabled -Ddriver_call_timer=true -Dcudatoolkit_path="$cuda" >/dev/null && meson compile -C /tmp/build-p >/dev/null) || { echo build failed; exit 1; }
L=/tmp/build-p/interpose/libcachemalloc.so
for r in 1 2; do
  for conf in "" ; do
    PYTORCH_NO_CUDA_MEMORY_CACHING=1 LD_PRELOAD=$L python3 scripts/gpu/torch_streams.py --steps 200 --label p 2>&1 | grep -E "probe|backend_timer|RESULT" | sed 's/RESULT_JSON.*"step_ms_median": \([0-9.]*\).*/step_ms_median \1/'
  done
done
