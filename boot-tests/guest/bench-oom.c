// SPDX-License-Identifier: GPL-2.0
/*
 * bench-oom SCENARIO: whom the OOM killer kills, how many, and how soon
 * memory is free again, for boot-tests/bench.sh.  The scenarios are those
 * of lib/scenario.c, which oom-scenario runs too.
 *
 * Unlike oom-scenario, nothing is killed here at the first death: the OOM
 * killer goes on until the hog is dead, which is when the pressure ends
 * (the hog is what allocates; its files are closed once it is reaped).
 * Then 2 s more, for a late victim, and only then the kernel log's
 * "Killed process" records are read and named.  While the pressure lasts,
 * a prober reads the hog's and the bystander's oom_score once a second, as
 * oom-scenario does (see start_prober()).  One line:
 *
 *   result victims SCENARIO first ROLE kills ROLE,... nkills N
 *	first_ms T recovery_ms T avail_mib M
 *
 * first_ms and recovery_ms are counted from the start of the hog to the
 * first OOM kill and to the hog's end; avail_mib is MemAvailable after.
 * A hog still alive after OOMTEST_TIMEOUT seconds (120) is a result when the
 * OOM killer killed others meanwhile, recovery_ms -1: a kernel that does
 * not see the hog's memory kills around it, and the pressure ends when what
 * feeds the hog dies, or never.  Exits 2 when the scenario could not be set
 * up, or the hog lived and no one was killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "guest.h"
#include "scenario.h"

#define SETTLE_MS 2000
#define MAX_KILLS 16

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/*
 * Reap the children as they die until the hog has been dead for SETTLE_MS,
 * or @timeout_ms from @t0.  Returns when the hog was reaped, -1 if not;
 * sets *@first_kill to when the first of them was killed (only the OOM
 * killer kills before we do).
 */
static long long wait_recovery(const pid_t pids[NROLES], long long t0,
			       long long timeout_ms, long long *first_kill)
{
	long long hog_end = -1, t;
	int status;
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, &status, WNOHANG);
		t = now_ms();
		if (pid > 0 && is_extra(pid))
			continue;	/* the decoys die first */
		if (pid > 0) {
			if (pid == pids[HOG])
				hog_end = t;
			if (WIFSIGNALED(status) && *first_kill < 0)
				*first_kill = t;
			if (WIFEXITED(status))
				printf("# the %s exited with status %d\n",
				       role_of(pids, pid), WEXITSTATUS(status));
			continue;
		}
		if (hog_end >= 0 && t - hog_end >= SETTLE_MS)
			return hog_end;
		if (t - t0 > timeout_ms)
			return -1;
		usleep(10000);
	}
}

/*
 * The prober: it reads the hog's and the bystander's oom_score once a
 * second, as oom-scenario does, until it is killed.  Without an allocation
 * of its own, a hog whose allocations fail without an OOM (virtio-gpu
 * allocates a buffer's pages with __GFP_RETRY_MAYFAIL) could fill memory
 * beside a bystander that is done allocating, and no one would ever invoke
 * the OOM killer.  It runs at oom_score_adj -999: the OOM killer takes it
 * only when it has no one else to take, where it would panic ("System is
 * deadlocked on memory") for the sake of our allocation, as the base
 * kernel did in gem-client-hog with -1000 here: its hog killed, the hog's
 * buffers not yet freed.
 */
static pid_t start_prober(const pid_t pids[NROLES])
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork of the prober");
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	set_oom_score_adj("-999");
	for (;;) {
		oom_score(pids[HOG]);
		oom_score(pids[BYSTANDER]);
		sleep(1);
	}
}

/* The role of @pid: one of the scenario's, the prober, or "other". */
static const char *who(const pid_t pids[NROLES], pid_t prober, pid_t pid)
{
	return pid == prober ? "prober" : role_of(pids, pid);
}

int main(int argc, char **argv)
{
	int timeout = getenv("OOMTEST_TIMEOUT") ? atoi(getenv("OOMTEST_TIMEOUT")) : 120;
	long long t0, end, first_kill = -1;
	pid_t pids[NROLES], kills[MAX_KILLS], prober;
	const struct scenario *s;
	int kmsg, nkills, i;
	long avail;

	s = argc == 2 ? scenario_find(argv[1]) : NULL;
	if (!s) {
		fprintf(stderr, "usage: bench-oom %s\n", scenario_names());
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	set_oom_score_adj("-1000");
	kmsg = kmsg_open();

	scenario_start(s, pids);
	t0 = now_ms();	/* the hog has just started */
	prober = start_prober(pids);
	end = wait_recovery(pids, t0, timeout * 1000LL, &first_kill);
	kill(prober, SIGKILL);
	avail = meminfo("MemAvailable") / MIB;
	scenario_stop(pids);
	while (wait(NULL) > 0)
		;
	nkills = oom_kills(kmsg, kills, MAX_KILLS);
	if (end < 0 && !nkills) {
		printf("error: no OOM kill within %d s\n", timeout);
		return 2;
	}
	if (end < 0)
		printf("the hog lived %d s, after %d kills\n", timeout, nkills);
	printf("result victims %s first %s kills ", s->name,
	       nkills ? who(pids, prober, kills[0]) : "none");
	for (i = 0; i < nkills; i++)
		printf("%s%s", i ? "," : "", who(pids, prober, kills[i]));
	printf("%s nkills %d first_ms %lld recovery_ms %lld avail_mib %ld\n",
	       nkills ? "" : "-", nkills, first_kill < 0 ? -1 : first_kill - t0,
	       end < 0 ? -1 : end - t0, avail);
	return 0;
}
