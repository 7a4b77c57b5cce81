# The block series lab: source -> build -> boot -> run -> report, for each
# kernel base of lab/bases.tsv (mainline, 6.12). LAB_BASE=mainline (or 6.12,
# or "mainline 6.12") limits any target to those bases; default: all.
# make check   the test run (what CI runs): checks, four kernels, selftests,
#              mainline's Debian packages booted
# make bench   the main job: seed workloads base vs patched, both bases
# make export  re-export patches/<base>/ from build/<base>/linux after editing
# make source  fetch, unpack and apply: build/<base>/linux
# make kernels build the base and patched kernels of each base
# make mutants build each mutant of lab/mutants/<base>/, run the selftests
#              on it, print mutant x test (not part of make check;
#              MUTANTS_SCOPE=meant: only the tests each mutant names)
# make v1      build 6.12's series v1 (the one the review read) and run the
#              dm-multipath flush tests on it: the lockdep result must fail
#              (not part of make check)
# make dirty   run every selftest twice on each base's patched kernel on a
#              machine left dirty (foreign null_blk, dm, kprobe; stale
#              objects of the tests' own names): same verdicts, nothing
#              left behind (not part of make check)
# make post    write each posting of patches/mainline/ under your own git
#              identity (From:, Signed-off-by:; you certify the DCO) into
#              results/post/<posting>/ with send.sh, which prints the send
#              command; sends nothing; refuses the repository's identity;
#              first runs the build-matrix legs not yet ok for these patches
# make build-matrix  build coverage before posting: allmodconfig per patch
#              (W=1, sparse), BLK_DEV_ZONED/AIO/DM_MULTIPATH off, i386,
#              htmldocs; fails on a warning the series adds
#              (LAB_MATRIX_LEGS="htmldocs i386" picks legs)
# make deb     Debian packages of each base with its series
#              (LAB_DEB_CONFIG=host|debian|lab|FILE; default host, else
#              debian) in build/<base>/deb/<config>/

SHELL := /bin/bash

.PHONY: check bench export source kernels mutants v1 dirty post build-matrix deb readme help

check:
	lab/run/check.sh

bench:
	lab/bench/run-bench.sh

export:
	set -e; top=$$PWD; . lab/paths.sh; bases=$$(lab_bases); for b in $$bases; do lab/source/export-series.sh $$b; done

source:
	lab/deps/install.sh
	set -e; top=$$PWD; . lab/paths.sh; bases=$$(lab_bases); for b in $$bases; do lab/source/prepare-tree.sh $$b; done

kernels: source
	set -e; top=$$PWD; . lab/paths.sh; bases=$$(lab_bases); for b in $$bases; do \
		lab/build/build-kernel.sh $$b base; lab/build/build-kernel.sh $$b patched; done

mutants: source
	lab/mutants/run-mutants.sh

v1: source
	lab/run/run-v1.sh

dirty: source
	top=$$PWD; . lab/paths.sh; bases=$$(lab_bases) || exit 2; rc=0; for b in $$bases; do lab/run/run-dirty.sh $$b || rc=1; done; exit $$rc

post:
	lab/post/make-post.sh --check-identity
	lab/deps/install.sh
	lab/source/prepare-tree.sh mainline
	lab/build/build-matrix.sh mainline --stale
	lab/post/make-post.sh

build-matrix: source
	top=$$PWD; . lab/paths.sh; bases=$$(lab_bases) || exit 2; rc=0; for b in $$bases; do lab/build/build-matrix.sh $$b $(LAB_MATRIX_LEGS) || rc=1; done; exit $$rc

deb: source
	top=$$PWD; . lab/paths.sh; bases=$$(lab_bases) || exit 2; for b in $$bases; do lab/build/build-deb.sh $$b $(LAB_DEB_CONFIG) || exit 1; done

help:
	@sed -n 's/^# //p' Makefile

# make readme  write the measured tables of results/ into README.md
readme:
	python3 lab/report/readme_tables.py README.md
