/* intr.c — see intr.h. */
#define _POSIX_C_SOURCE 200809L
#include "cli/intr.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>

#define WATCH_MAX 1024

struct cli_intr {
	pthread_t tid;
	pthread_mutex_t lock;
	we_device *devs[WATCH_MAX];
	_Atomic bool fired;
	_Atomic int signo;       /* the first signal taken */
	sigset_t set;            /* SIGINT, SIGTERM, and SIGUSR1 to stop */
};

static void *waiter(void *arg)
{
	cli_intr *in = arg;
	for (;;) {
		int sig = 0;
		if (sigwait(&in->set, &sig) != 0)
			continue;
		if (sig == SIGUSR1)
			return NULL;
		int none = 0;
		atomic_compare_exchange_strong_explicit(&in->signo, &none, sig, memory_order_relaxed,
							memory_order_relaxed);
		atomic_store_explicit(&in->fired, true, memory_order_release);
		if (pthread_mutex_lock(&in->lock) == 0) {
			for (unsigned i = 0; i < WATCH_MAX; i++)
				if (in->devs[i])
					we_device_interrupt(in->devs[i]);
			pthread_mutex_unlock(&in->lock);
		}
	}
}

cli_intr *cli_intr_start(void)
{
	cli_intr *in = calloc(1, sizeof *in);
	if (!in)
		return NULL;
	atomic_init(&in->fired, false);
	atomic_init(&in->signo, 0);
	if (sigemptyset(&in->set) || sigaddset(&in->set, SIGINT) || sigaddset(&in->set, SIGTERM) ||
	    sigaddset(&in->set, SIGUSR1) || pthread_mutex_init(&in->lock, NULL)) {
		free(in);
		return NULL;
	}
	sigset_t old;
	if (pthread_sigmask(SIG_BLOCK, &in->set, &old)) {
		pthread_mutex_destroy(&in->lock);
		free(in);
		return NULL;
	}
	if (pthread_create(&in->tid, NULL, waiter, in)) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pthread_mutex_destroy(&in->lock);
		free(in);
		return NULL;
	}
	return in;
}

void cli_intr_stop(cli_intr *in)
{
	if (!in)
		return;
	/* wake the waiter with its private stop signal, then join it */
	if (pthread_kill(in->tid, SIGUSR1) == 0)
		pthread_join(in->tid, NULL);
	else
		pthread_detach(in->tid);
	pthread_mutex_destroy(&in->lock);
	free(in);
}

bool cli_intr_watch(cli_intr *in, we_device *dev)
{
	if (!in)
		return true;
	bool ok = false;
	if (pthread_mutex_lock(&in->lock))
		return false;
	for (unsigned i = 0; i < WATCH_MAX && !ok; i++)
		if (!in->devs[i]) {
			in->devs[i] = dev;
			ok = true;
		}
	pthread_mutex_unlock(&in->lock);
	/* a signal that came before the device was watched still counts */
	if (ok && atomic_load_explicit(&in->fired, memory_order_acquire))
		we_device_interrupt(dev);
	return ok;
}

void cli_intr_unwatch(cli_intr *in, we_device *dev)
{
	if (!in || pthread_mutex_lock(&in->lock))
		return;
	for (unsigned i = 0; i < WATCH_MAX; i++)
		if (in->devs[i] == dev)
			in->devs[i] = NULL;
	pthread_mutex_unlock(&in->lock);
}

bool cli_intr_fired(const cli_intr *in)
{
	return in && atomic_load_explicit(&((cli_intr *)in)->fired, memory_order_acquire);
}

int cli_intr_signal(const cli_intr *in)
{
	/* (acquire on fired orders the relaxed store of signo before it) */
	if (!cli_intr_fired(in))
		return 0;
	return atomic_load_explicit(&((cli_intr *)in)->signo, memory_order_relaxed);
}
