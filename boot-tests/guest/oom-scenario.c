// SPDX-License-Identifier: GPL-2.0
/*
 * oom-scenario: whom does the OOM killer kill when one process allocates
 * memory through a file and another holds memory of its own?
 *
 * Called as memfd-hog, dmabuf-hog or gem-hog (or with that as its first
 * argument).  A bystander maps and touches a quarter of RAM as anonymous
 * memory; then a hog allocates without end through a file:
 *
 *   memfd-hog   write() to a memfd
 *   dmabuf-hog  buffers from /dev/dma_heap/system
 *   gem-hog     vgem dumb buffers, mapped (through their PRIME DMA-buf),
 *               touched and unmapped again
 *
 * None of that is in the hog's RSS.
 *
 * The hogs are those of guest.h (see gem_buffer() there for why gem-hog maps
 * through a DMA-buf).  The first of the two that the OOM killer kills (by
 * its own account in the kernel log) is the victim; the other is then
 * killed by us.  Prints "victim: hog" or "victim: bystander"
 * and, when OOMTEST_EXPECT names one, exits 0 if it matches, 1 if not.
 * Exits 2 when the scenario could not be set up or ended otherwise.
 *
 * This process and its parents must not be candidates: it sets its own
 * oom_score_adj to -1000 and its children's to 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "guest.h"

/* The pids the OOM killer killed since @kmsg was opened, in order. */
static int oom_kills(int kmsg, pid_t *pids, int max)
{
	char rec[2048];
	int n = 0;
	ssize_t len;

	while ((len = read(kmsg, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE) {
		char *k;

		if (len <= 0)
			continue;	/* EPIPE: records were overwritten */
		rec[len] = 0;
		k = strstr(rec, "Killed process ");
		if (k && n < max)
			pids[n++] = atoi(k + strlen("Killed process "));
	}
	return n;
}

static long oom_score(pid_t pid)
{
	char path[64], buf[32] = "";
	long score = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/oom_score", pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		score = atol(buf);
	if (fd >= 0)
		close(fd);
	return score;
}

static const char *who(pid_t pid, pid_t hog, pid_t bystander)
{
	return pid == hog ? "hog" : pid == bystander ? "bystander" : "another process";
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *expect = getenv("OOMTEST_EXPECT");
	int timeout = getenv("OOMTEST_TIMEOUT") ? atoi(getenv("OOMTEST_TIMEOUT")) : 300;
	void (*hog_fn)(void) = NULL;
	struct rlimit nofile = { 65536, 65536 };
	pid_t hog, bystander, first = 0, kills[16];
	long hog_score = -1, bystander_score = -1, s;
	const char *victim;
	int ready[2], status, kmsg, nkills, i;
	struct timespec t0, t1;
	long quarter;
	char c;

	if (!strcmp(name, "oom-scenario") && argc > 1)
		name = argv[1];
	if (!strcmp(name, "memfd-hog"))
		hog_fn = hog_memfd;
	else if (!strcmp(name, "dmabuf-hog"))
		hog_fn = hog_dmabuf;
	else if (!strcmp(name, "gem-hog"))
		hog_fn = hog_gem;
	if (!hog_fn) {
		fprintf(stderr, "usage: memfd-hog | dmabuf-hog | gem-hog\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	setrlimit(RLIMIT_NOFILE, &nofile);
	set_oom_score_adj("-1000");
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0)
		die("/dev/kmsg");

	quarter = meminfo("MemTotal") / 4;
	if (pipe(ready))
		die("pipe");
	bystander = fork();
	if (bystander < 0)
		die("fork");
	if (!bystander) {
		char *p = mmap(NULL, quarter, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		set_oom_score_adj("0");
		if (p == MAP_FAILED)
			die("bystander's mmap");
		touch(p, quarter);
		if (write(ready[1], "r", 1) != 1)
			die("ready");
		for (;;)
			pause();
	}
	if (read(ready[0], &c, 1) != 1)
		die("bystander did not get ready");
	printf("bystander %d holds %ld MiB; hog starts\n", bystander, quarter / MIB);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	hog = fork();
	if (hog < 0)
		die("fork");
	if (!hog) {
		set_oom_score_adj("0");
		hog_fn();
	}

	/* The first of them to die; their scores as they go. */
	for (i = 0; i < timeout * 20 && !first; i++) {
		first = waitpid(-1, &status, WNOHANG);
		if (first)
			break;
		/* Scores as of a second before, not taken under pressure. */
		if (i % 20 == 0) {
			s = oom_score(hog);
			hog_score = s > 0 ? s : hog_score;
			s = oom_score(bystander);
			bystander_score = s > 0 ? s : bystander_score;
		}
		usleep(50000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kill(hog, SIGKILL);
	kill(bystander, SIGKILL);
	while (wait(NULL) > 0)
		;
	if (first <= 0) {
		printf("neither died within %d s\n", timeout);
		return 2;
	}
	nkills = oom_kills(kmsg, kills, 16);
	printf("first to die: %s (%s), after %.1f s; the OOM killer killed:",
	       who(first, hog, bystander),
	       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exited",
	       t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (i = 0; i < nkills; i++)
		printf(" %s", who(kills[i], hog, bystander));
	printf("\nlast oom_score seen: hog %ld, bystander %ld\n", hog_score, bystander_score);
	/*
	 * The victim is the OOM killer's first kill, not the first process
	 * reaped: a GEM hog is done for the OOM killer once its mm is gone,
	 * but it frees its buffers only as its files close, and a second
	 * victim killed meanwhile can be reaped before it.
	 */
	for (i = 0; i < nkills && kills[i] != first; i++)
		;
	if (i == nkills || !WIFSIGNALED(status)) {
		printf("error: the first death was not the OOM killer's\n");
		return 2;
	}
	victim = who(kills[0], hog, bystander);
	printf("victim: %s\n", victim);
	if (!expect)
		return 0;
	if (strcmp(expect, victim)) {
		printf("expected: %s\n", expect);
		return 1;
	}
	return 0;
}
