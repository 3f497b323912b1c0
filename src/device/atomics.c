/* atomics.c — the global atomics of a launch, per 32-bit word of each
 * allocation: what a distribution layer needs to merge the memory of grid
 * parts run in different processes (doc/distributed.md).  Off the fast
 * path: only a launch with track_atomics notes anything. */
#include <stdlib.h>
#include <string.h>

#include "device/device.h"

bool dev_atomics_reset(struct we_device *d, bool on)
{
	for (uint32_t i = 0; i < d->nallocs; i++) {
		galloc *a = &d->allocs[i];
		if (!on) {
			free(a->atoms);
			a->atoms = NULL;
			continue;
		}
		const size_t words = (size_t)((a->size + 3) / 4);
		if (a->atoms) {
			memset(a->atoms, 0, words);
		} else if (!(a->atoms = calloc(words, 1))) {
			(void)dev_atomics_reset(d, false);
			return false;
		}
	}
	return true;
}

/* The code of one word: the first code (with the fetched bit of any),
 * or MIXED when another operation or type comes. */
static void note_word(uint8_t *m, uint8_t code)
{
	uint8_t old = __atomic_load_n(m, __ATOMIC_RELAXED);
	while (old != (old | code) && old != WE_ATOMIC_MIXED) {
		const bool same = ((old ^ code) & ~WE_ATOMIC_FETCHED) == 0;
		const uint8_t want = old == 0 ? code : same ? (uint8_t)(old | code) : WE_ATOMIC_MIXED;
		if (__atomic_compare_exchange_n(m, &old, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return;
	}
}

void dev_note_atomic(struct we_device *d, const uint8_t *p, unsigned bytes, uint8_t code)
{
	/* by host address: the handler has only that; allocations are few
	 * (the kernel's buffers), and the table does not change in a launch */
	for (uint32_t i = 0; i < d->nallocs; i++) {
		const galloc *a = &d->allocs[i];
		if (!a->atoms || p < a->host || p >= a->host + a->size)
			continue;
		const size_t w = (size_t)(p - a->host) / 4;
		for (unsigned k = 0; k < bytes / 4; k++)
			note_word(&a->atoms[w + k], code);
		return;
	}
}

we_status we_atomic_map(const we_device *dev, we_devptr p, size_t bytes, const uint8_t **map)
{
	if (!dev || !map || (p & 3) || (bytes & 3))
		return WE_ERR_INVALID;
	*map = NULL;
	const galloc *a;
	if (!dev_translate_alloc(dev, p, bytes ? bytes : 1, &a))
		return WE_ERR_INVALID;
	if (a->atoms)
		*map = a->atoms + (p - a->base) / 4;
	return WE_OK;
}
