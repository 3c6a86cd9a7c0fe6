# The guest's state as the inner QEMU's monitor tells it (init.sh asks,
# at 60 s, "info lapic N" for each vCPU and "info registers -a"): one line
# per vCPU, for the reason a hang's verdict quotes. Where a halted CPU's
# timer has run out and its IRR and ISR are empty, the interrupt that
# should have ended the halt was taken before it or never came
# (docs/run-kvm.md, "A hang that was the emulator's").
{ gsub(/\r/, "") }
/^dumping local APIC state for CPU/ { cpu = $NF; next }
/^(LVTT|Timer|ISR|IRR)[ \t]/ {
	line = $0
	gsub(/[ \t]+/, " ", line)
	apic[cpu] = apic[cpu] "; " line
	next
}
/^APR / {
	apic[cpu] = apic[cpu] "; TPR " $4 " PPR " $NF
	next
}
/^CPU#[0-9]+$/ { regs = substr($0, 5); next }
/^RIP=/ { state[regs] = $1 " " $2 " " $NF; next }
END {
	for (n = 0; n in state; n++)
		print "pmctest-l1: guest CPU " n " at 60 s: " state[n] apic[n]
}
