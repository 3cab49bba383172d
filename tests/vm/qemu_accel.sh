# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Sourced by the runners (vm_run.sh, cx/cx_vm.sh): how QEMU runs the guest.
#
# One host thread runs both virtual CPUs in turn (thread=single).  With a
# thread per vCPU (QEMU's default for x86 on x86), Debian's 6.12 panicked
# in about one boot in ten: the kernel patches its own text with
# text_poke_bp() (int3 first, then the new bytes, an IPI between steps)
# while the other vCPU runs the same code, and a translation block made
# from the int3 stage outlives the patch on that vCPU (an "int3" Oops in
# sched_clock_cpu(), a double fault in the slab allocator).  With one
# thread no vCPU runs while another writes code, so every translation
# sees the whole patch or none of it.  The guest still has two CPUs:
# locks, IPIs, per-CPU data and its scheduler behave as on SMP, and two
# guest threads interleave wherever QEMU switches vCPUs (tests/vm/README.md,
# "Why one thread").  VM_TCG overrides it, e.g. VM_TCG=tcg,thread=multi.
VM_TCG=${VM_TCG:-tcg,thread=single}
