#!/bin/sh
# /init of the nested-KVM initramfs (tests/hosttools/images/nested/initramfs.py).
#
# The outer machine has two serial ports: COM1 (ttyS0) carries pmctest's
# TAP and nothing else, COM2 (ttyS1) is Linux's console, where this script
# reports with lines that start "pmctest-l1: ". It loads KVM, boots
# /pmctest/pmctest.elf with the command line in /pmctest/args in QEMU on
# KVM, and hands the kernel's exit status on through the outer
# isa-debug-exit port (0xf4): the outer QEMU then exits as a direct run
# would. 2 where the run could not be made.
PATH=/bin:/usr/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

say() { echo "pmctest-l1: $*"; }

finish() {
	say "exit status $1"
	# The outer isa-debug-exit; where there is none (Bochs), the console
	# line above is the verdict and the power-off ends the machine.
	printf "\\$(printf %o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
}

# KVM's module parameters (make run-kvm KVM_PARAMS=; params.py): lines
# "MODULE NAME=VALUE", each given to the insmod of its module. busybox's
# insmod does not read kvm_amd.x=1 off the command line as kmod would.
params_of() { sed -n "s/^$1 //p" /pmctest/kvm-params 2>/dev/null | tr '\n' ' '; }

vendor=amd
grep -q GenuineIntel /proc/cpuinfo && vendor=intel
loaded=" "
if [ -f /lib/modules/$vendor.order ]; then
	for m in $(cat /lib/modules/$vendor.order); do
		p=$(params_of $m)
		if insmod /lib/modules/$m.ko $p; then
			loaded="$loaded$m "
		elif [ -n "$p" ]; then
			say "insmod $m refused its parameters: $p"
			finish 2
		else
			say "insmod $m failed"
		fi
	done
fi
if [ ! -c /dev/kvm ]; then
	grep -q -E '^flags.* (svm|vmx)( |$)' /proc/cpuinfo ||
		say "the CPU offers neither SVM nor VMX"
	say "no /dev/kvm: KVM did not load"
	dmesg | grep -i -E 'kvm|svm|vmx' | tail -5
	finish 2
fi
say "linux $(uname -r), kvm enable_pmu=$(cat /sys/module/kvm/parameters/enable_pmu 2>/dev/null)"
# What L1 really has of what it was asked: each module parameter as the
# module left it (KVM clears one it cannot honour: enable_mediated_pmu
# without the host PMU it needs), each command-line word as /proc/cmdline
# has it. A module that is not loaded, or lacks the parameter, ends the
# run: it must never run on without what was asked.
params=""
while read -r m kv; do
	[ -n "$m" ] || continue
	name=${kv%%=*}
	case "$loaded" in
	*" $m "*) ;;
	*) say "KVM_PARAMS: module $m is not loaded here ($vendor: $(cat /lib/modules/$vendor.order 2>/dev/null | tr '\n' ' '))"; finish 2 ;;
	esac
	file=/sys/module/$(echo $m | tr - _)/parameters/$name
	if [ ! -r "$file" ]; then
		say "KVM_PARAMS: module $m has no parameter $name"
		finish 2
	fi
	params="$params $(echo $m | tr - _).$name=$(cat $file)"
done < /pmctest/kvm-params
cmdline=" $(cat /proc/cmdline) "
while read -r word; do
	[ -n "$word" ] || continue
	case "$cmdline" in
	*" $word "*) params="$params $word" ;;
	*) say "L1_ARGS: $word is not on L1's command line: $(cat /proc/cmdline)"; finish 2 ;;
	esac
done < /pmctest/l1-args
say "params${params:- (none)}"
# Whether L1's perf found counters: "Performance Events: AMD PMU driver."
# with them, "... no PMU driver, software events only." without.
perf=$(dmesg | sed -n 's/^\[[^]]*\] //; /Performance Events:/p' | tail -1)
say "${perf:-no Performance Events: line in L1's log}"
if [ ! -f /pmctest/pmctest.elf ] || [ ! -f /pmctest/args ]; then
	say "no /pmctest/pmctest.elf or /pmctest/args: the run's archive is missing"
	finish 2
fi
# The guest's -cpu and vCPUs (/pmctest/vmm: "cpu=MODEL", "smp=N";
# params.py), "host" and 1 unless the run says otherwise.
vmm_cpu=$(sed -n 's/^cpu=//p' /pmctest/vmm 2>/dev/null)
vmm_smp=$(sed -n 's/^smp=//p' /pmctest/vmm 2>/dev/null)
# How often KVM intercepted the guest's RDPMC: a histogram of kvm_exit by
# its reason (SVM_EXIT_RDPMC 0x6f, VMX's 15), where tracefs has it.
rdpmc_exit=111
[ $vendor = intel ] && rdpmc_exit=15
tracing=/sys/kernel/tracing
mount -t tracefs nodev $tracing 2>/dev/null
echo 'hist:keys=exit_reason' > $tracing/events/kvm/kvm_exit/trigger 2>/dev/null
# -serial /dev/ttyS0 puts the guest's COM1 on ours, in raw mode. QEMU's
# messages go to the console as they come (a "KVM internal error" ends the
# outer boot there) and to a file for the verdict below.
mkdir -p /tmp
# The inner QEMU's monitor on two pipes, read into a file: where a hang
# needs it, it tells the guest's registers and local APICs.
mkfifo /tmp/monitor.in /tmp/monitor.out
cat /tmp/monitor.out > /tmp/monitor.log &
exec 3<>/tmp/monitor.in
# A guest still running after 60 s (a subset takes 10 to 25) may hang:
# where each thread of the inner QEMU waits, on one line, and each vCPU's
# registers and timer, a line each (guest_state.awk), for the reason a
# hang's verdict quotes (hosttools/targets/nested.py).
( sleep 60
  for pid in $(pidof qemu-system-x86_64); do
	line=""
	for t in /proc/$pid/task/*; do
		line="$line; $(cat $t/comm 2>/dev/null) $(sed 's/.*) \(.\).*/\1/' $t/stat 2>/dev/null) $(cat $t/wchan 2>/dev/null)"
	done
	say "still running after 60 s, its threads:${line#;}"
  done
  n=0
  while [ $n -lt "${vmm_smp:-1}" ]; do
	echo "info lapic $n" >&3
	n=$((n + 1))
  done
  echo "info registers -a" >&3
  sleep 2
  awk -f /guest_state.awk /tmp/monitor.log ) &
watchdog=$!
( qemu-system-x86_64 -accel kvm -cpu "${vmm_cpu:-host}" -smp "${vmm_smp:-1}" \
	-M microvm -m 64 -nodefaults \
	-no-reboot -display none -monitor none -serial /dev/ttyS0 \
	-chardev pipe,id=monitor,path=/tmp/monitor -mon chardev=monitor \
	-device isa-debug-exit,iobase=0xf4,iosize=4 \
	-kernel /pmctest/pmctest.elf -append "$(cat /pmctest/args)"
  echo $? > /tmp/qemu.rc ) 2>&1 | tee /tmp/qemu.err
rc=$(cat /tmp/qemu.rc)
kill $watchdog 2>/dev/null
if [ -r $tracing/events/kvm/kvm_exit/hist ]; then
	n=$(sed -n "s/^{ exit_reason: *$rdpmc_exit } hitcount: *\([0-9]*\).*/\1/p" \
		$tracing/events/kvm/kvm_exit/hist)
	say "rdpmc exits ${n:-0}"
fi
# What KVM logged about the guest (unhandled MSRs and the like), counted.
dmesg | sed 's/^\[[^]]*\] //' | grep -E '^kvm.*(vcpu|guest)' | sort | uniq -c | tail -20
# With isa-debug-exit QEMU exits (status << 1) | 1; but 1 is also QEMU's
# own failure, which it explains on stderr (its warnings aside).
if grep -v 'warning:' /tmp/qemu.err | grep -q .; then
	[ "$rc" = 1 ] && { say "qemu failed"; finish 2; }
fi
case $rc in
1|3|5) finish $((rc >> 1)) ;;
*) say "qemu exited with $rc"; finish 2 ;;
esac
