/* sem.h — what the semantic handlers share beyond exec.h. */
#ifndef WE_SEM_H
#define WE_SEM_H

#include <stdbool.h>
#include <stddef.h>

#include "exec.h"

/* Load-time checks of one instruction that the encoding allows but the
 * executor must refuse (e.g. an immediate barrier count that is not a
 * multiple of 32, SPEC-NOTES decision 3).  false with a message in err. */
bool sem_check_static(const xinsn *i, we_dialect dialect, char *err, size_t errlen);

#endif
