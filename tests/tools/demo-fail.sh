#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# A failed check makes the demo exit 1, say FAIL on the step's line and
# count it in the summary, and the run still ends cleanly (objects shared,
# then destroyed).  The failure provoked here: blobs cannot be saved,
# because the --save-blobs directory is under a regular file.
#
#   demo-fail.sh DEMO

set -u
name=demo-fail
demo=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/file"
# shellcheck source=demo-output.sh
. "$(dirname "$0")/demo-output.sh"

demo_run 1 "$demo" --no-emulate --save-blobs "$work/file/blobs"
want '^exporter +save blob of flow counter #0 in .*: Not a directory +FAIL$'
want '^summary: 4 objects shared \('
want '^summary: checks: [0-9]+ passed, 4 failed \(exporter [0-9]+/4, importer [0-9]+/0\)$'
want '^importer +import stale UMEM #0 \(handle [0-9]+\): (refused with ENOENT|accepted, its first command failed with ENOENT) +ok'
demo_done
