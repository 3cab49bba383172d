#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# A blob saved in one mlx5-emu run and replayed in a fresh one (a reboot
# of the emulated machine) is refused with ESTALE (test_reboot.c).
#
#   run-reboot.sh MLX5_EMU E2E_REBOOT
set -u
emu=$1 prog=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$emu" run --devices 1 -- "$prog" save "$work/blob" || exit 1
[ -s "$work/blob" ] || { echo "run-reboot: no blob saved" >&2; exit 1; }
"$emu" run --devices 1 -- "$prog" load "$work/blob"
