/* intr.h — SIGINT/SIGTERM for the CLI without a global: the signals are
 * blocked in every thread (set up before any other thread exists) and one
 * thread takes them with sigwait() and interrupts the registered devices
 * (we_device_interrupt), so a launch stops cleanly: every host thread is
 * joined, outputs are written atomically or not at all, and the exit
 * status is 128 + the signal's number (130 for SIGINT, 143 for SIGTERM). */
#ifndef WE_CLI_INTR_H
#define WE_CLI_INTR_H

#include <stdbool.h>

#include "warpemu/warpemu.h"

typedef struct cli_intr cli_intr;

/* Block the signals and start the waiting thread.  NULL (and signals left
 * alone) when that fails: the CLI then works without clean interrupts. */
cli_intr *cli_intr_start(void);
void cli_intr_stop(cli_intr *in);
/* Devices to interrupt; watch returns false when the table is full. */
bool cli_intr_watch(cli_intr *in, we_device *dev);
void cli_intr_unwatch(cli_intr *in, we_device *dev);
/* A signal arrived. */
bool cli_intr_fired(const cli_intr *in);
/* The first signal that arrived (SIGINT or SIGTERM), or 0. */
int cli_intr_signal(const cli_intr *in);

#endif
