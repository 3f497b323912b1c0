/* registry.c — the engines a launch can run on (engine.h).  The first is
 * the default (WE_ENGINE_DEFAULT): the faster one on every benchmark. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stddef.h>

#include "engine/engine.h"

/* Every engine, one line each: its engine_ops object. */
#define ENGINES(X)                 \
	X(engine_scheduler)        \
	X(engine_warp_threads)

#define X_DECLARE(ops) extern const engine_ops ops;
ENGINES(X_DECLARE)
#undef X_DECLARE

#define X_ENTRY(ops) &ops,
static const engine_ops *const engines[] = { ENGINES(X_ENTRY) };
#undef X_ENTRY

const engine_ops *engine_find(we_engine e)
{
	if (e == WE_ENGINE_DEFAULT)
		return engines[0];
	for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
		if (engines[i]->id == e)
			return engines[i];
	return NULL;
}

const char *we_engine_name(we_engine e)
{
	if (e == WE_ENGINE_DEFAULT)
		return "default";
	const engine_ops *ops = engine_find(e);
	return ops ? ops->name : "unknown";
}
