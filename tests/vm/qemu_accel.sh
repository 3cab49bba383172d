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

# The guest's clock.  Under TCG the guest's TSC is the host's, but the
# kernel measures its rate at boot against the emulated HPET, and on a
# busy host (two guests and a build on two cores) that measurement came
# out several times too low: guest time ran ahead of the host's (150 s in
# a 22 s boot) and its lockup detector reported a CPU "stuck for 22s".
# tsc_early_khz gives the kernel the rate the host's own kernel measured,
# so the clocksource, sched_clock and the TSC-deadline timer keep real
# time; the lockup detectors (nowatchdog) are off because the runners'
# timeouts already catch a guest that hangs, and a vCPU the host starved
# is no fault of the guest.  Without the host's figure (dmesg unreadable
# or rotated) the guest measures the rate itself, as before.
vm_tsc_khz() {	# the host kernel's figure, refined if it has one
	mhz='\([0-9]*\)\.\([0-9]\{3\}\) MHz'
	refined='Refined TSC clocksource calibration'
	dmesg 2>/dev/null | sed -n \
		-e "s/.*tsc: $refined: $mhz.*/2 \\1\\2/p" \
		-e "s/.*tsc: Detected $mhz processor.*/1 \\1\\2/p" |
		sort -n | tail -n 1 | cut -d' ' -f2
}
VM_CLOCK_ARGS=nowatchdog
khz=$(vm_tsc_khz)
[ -z "$khz" ] || VM_CLOCK_ARGS="$VM_CLOCK_ARGS tsc_early_khz=$khz"
unset khz
