/* The APs' log lines, through a ring CPU 0 empties (arch/ap_console.h). */
#include "ap_console.h"

#include "consoles.h"
#include "cpu_table.h"
#include "cpus.h"
#include "fbcon.h"
#include "platform.h"

#define RING_BYTES 4096u	/* a power of two */

_Static_assert(PLATFORM_CONSOLE_LINE_MAX < RING_BYTES, "a line fits the ring");

/* head and tail count bytes since boot: the AP advances head past a line
 * once all its bytes are in (the one store that commits it), CPU 0
 * advances tail past what it has written out. */
static struct {
	char bytes[RING_BYTES];
	uint64_t head, tail;
} ring;

void ap_console_put(const char *s, size_t n)
{
	uint64_t head = ring.head;

	if (head + n - __atomic_load_n(&ring.tail, __ATOMIC_SEQ_CST) > RING_BYTES)
		cpu_wake_waiter(platform_this_cpu());	/* it may halt: arch/cpus.c */
	while (head + n - __atomic_load_n(&ring.tail, __ATOMIC_ACQUIRE) > RING_BYTES)
		__asm__ volatile("pause");
	for (size_t i = 0; i < n; i++)
		ring.bytes[(head + i) % RING_BYTES] = s[i];
	__atomic_store_n(&ring.head, head + n, __ATOMIC_RELEASE);
}

/* The bytes from..to of the ring, in at most two writes (it wraps). */
static void write_out(uint64_t from, uint64_t to)
{
	size_t at = from % RING_BYTES, n = to - from;
	size_t first = n < RING_BYTES - at ? n : RING_BYTES - at;

	consoles_write(&ring.bytes[at], first);
	fbcon_write(&ring.bytes[at], first);
	if (first < n) {
		consoles_write(ring.bytes, n - first);
		fbcon_write(ring.bytes, n - first);
	}
}

void ap_console_drain(void)
{
	uint64_t head = __atomic_load_n(&ring.head, __ATOMIC_ACQUIRE);

	if (head == ring.tail || platform_this_cpu() != 0)
		return;
	write_out(ring.tail, head);
	__atomic_store_n(&ring.tail, head, __ATOMIC_RELEASE);
}

bool ap_console_pending(void)
{
	return __atomic_load_n(&ring.head, __ATOMIC_SEQ_CST) != ring.tail;
}

uint64_t ap_console_bytes(void)
{
	return __atomic_load_n(&ring.head, __ATOMIC_ACQUIRE);
}
