# The block series lab: source -> build -> boot -> run -> report.
# make check   the test run (what CI runs): checks, two kernels, selftests
# make bench   the main job: seed workloads base vs patched, table + plots
# make export  re-export patches/ from build/linux after editing the series

.PHONY: check bench export source kernels help

check:
	lab/run/check.sh

bench:
	lab/bench/run-bench.sh

export:
	lab/source/export-series.sh

source:
	lab/deps/install.sh
	lab/source/prepare-tree.sh

kernels: source
	lab/build/build-kernel.sh base
	lab/build/build-kernel.sh patched

help:
	@sed -n 's/^# //p' Makefile
