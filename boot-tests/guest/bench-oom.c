// SPDX-License-Identifier: GPL-2.0
/*
 * bench-oom: whom the OOM killer kills, how many, and how soon memory is
 * free again, for boot-tests/bench.sh.  Called as bench-oom SCENARIO:
 *
 *   memfd-hog, dmabuf-hog, gem-hog
 *                  the scenarios of oom-scenario.c, with the hogs of
 *                  guest.h: a bystander maps and touches a quarter of RAM,
 *                  then a hog allocates without end through a memfd,
 *                  DMA-bufs of the system heap or vgem dumb buffers
 *   memfd-shared   the memfd hog, which first passes its memfd to the
 *                  bystander over SCM_RIGHTS (a client handing its shm pool
 *                  to a compositor): the bystander holds a reference to
 *                  the hog's memory
 *   memfd-sparse   the memfd hog, and the bystander holds a 4 GiB memfd
 *                  that it received over SCM_RIGHTS, ftruncate'd and never
 *                  written: it must not be framed
 *   gem-churn      the GEM hog, and beside it a churner that creates a
 *                  1 MiB vgem buffer, touches it and frees it, in a loop
 *
 * Unlike oom-scenario, nothing is killed here at the first death: the OOM
 * killer goes on until the hog is dead, which is when the pressure ends
 * (the hog is what allocates; its files are closed once it is reaped).
 * Then 2 s more, for a late victim, and only then the kernel log's
 * "Killed process" records are read and named.  Nothing reads /proc while
 * the pressure lasts.  One line:
 *
 *   result victims SCENARIO first ROLE kills ROLE,... nkills N
 *	first_ms T recovery_ms T avail_mib M
 *
 * first_ms and recovery_ms are counted from the start of the hog to the
 * first OOM kill and to the hog's end; avail_mib is MemAvailable after.
 * Exits 2 when the scenario could not be set up or the hog did not die
 * within OOMTEST_TIMEOUT seconds (120).
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <drm/drm.h>
#include "guest.h"

#define SETTLE_MS 2000
#define MAX_KILLS 16

enum { BYSTANDER, HOG, CHURNER, NROLES };
static const char *const role_names[] = { "bystander", "hog", "churner" };

static pid_t pids[NROLES];
static long long first_kill = -1;
/* The bystander's end of a socket pair: it keeps the fds sent on it. */
static int share[2] = { -1, -1 };

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* Send @fd over the socket pair and wait until the bystander holds it. */
static void send_fd(int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, c = 'f';
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	if (sendmsg(share[0], &msg, 0) != 1 || read(share[0], &c, 1) != 1)
		die("SCM_RIGHTS");
}

/* The bystander: keep every fd that comes, and say so. */
static void keep_fds(void)
{
	char cbuf[CMSG_SPACE(sizeof(int))], c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};

	while (recvmsg(share[1], &msg, 0) == 1 && write(share[1], "k", 1) == 1)
		msg.msg_controllen = sizeof(cbuf);
	for (;;)
		pause();
}

static void churn_gem(void)
{
	int fd = open_vgem(NULL, 0);

	if (fd < 0)
		die("no vgem card");
	for (;;) {
		struct drm_gem_close close = { .handle = gem_buffer(fd, MIB) };

		if (close.handle && ioctl(fd, DRM_IOCTL_GEM_CLOSE, &close))
			die("DRM_IOCTL_GEM_CLOSE");
	}
}

static const struct scenario {
	const char *name;
	void (*hog)(void);
	int shared;		/* the hog passes its memfd to the bystander */
	long sparse;		/* the bystander holds a sparse memfd this big */
	void (*churner)(void);
} scenarios[] = {
	{ "memfd-hog", hog_memfd },
	{ "dmabuf-hog", hog_dmabuf },
	{ "gem-hog", hog_gem },
	{ "memfd-shared", hog_memfd, .shared = 1 },
	{ "memfd-sparse", hog_memfd, .sparse = 4096 * MIB },
	{ "gem-churn", hog_gem, .churner = churn_gem },
};

static pid_t start(int role, void (*fn)(void))
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		set_oom_score_adj("0");
		fn();
		exit(2);
	}
	pids[role] = pid;
	return pid;
}

static void bystander(void)
{
	long quarter = meminfo("MemTotal") / 4;
	char *p = mmap(NULL, quarter, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("bystander's mmap");
	touch(p, quarter);
	close(share[0]);
	if (write(share[1], "r", 1) != 1)
		die("ready");
	keep_fds();
}

static const char *role_of(pid_t pid)
{
	int r;

	for (r = 0; r < NROLES; r++)
		if (pids[r] && pids[r] == pid)
			return role_names[r];
	return "other";
}

/* The pids the OOM killer killed since @kmsg was opened, in order. */
static int oom_kills(int kmsg, pid_t *kills)
{
	char rec[2048], *k;
	int n = 0;
	ssize_t len;

	while ((len = read(kmsg, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE) {
		if (len <= 0)
			continue;	/* EPIPE: records were overwritten */
		rec[len] = 0;
		k = strstr(rec, "Killed process ");
		if (k && n < MAX_KILLS)
			kills[n++] = atoi(k + strlen("Killed process "));
	}
	return n;
}

/*
 * Reap the children as they die until the hog has been dead for SETTLE_MS,
 * or @timeout_ms from @t0.  Returns when the hog was reaped, -1 if not;
 * sets first_kill to when the first of them was killed (only the OOM
 * killer kills before we do).
 */
static long long wait_recovery(long long t0, long long timeout_ms)
{
	long long hog_end = -1, t;
	int status;
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, &status, WNOHANG);
		t = now_ms();
		if (pid > 0) {
			if (pid == pids[HOG])
				hog_end = t;
			if (WIFSIGNALED(status) && first_kill < 0)
				first_kill = t;
			if (WIFEXITED(status))
				printf("# the %s exited with status %d\n", role_of(pid),
				       WEXITSTATUS(status));
			continue;
		}
		if (hog_end >= 0 && t - hog_end >= SETTLE_MS)
			return hog_end;
		if (t - t0 > timeout_ms)
			return -1;
		usleep(10000);
	}
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int timeout = getenv("OOMTEST_TIMEOUT") ? atoi(getenv("OOMTEST_TIMEOUT")) : 120;
	const struct scenario *s = NULL;
	int kmsg, nkills, i, fd;
	pid_t kills[MAX_KILLS];
	long long t0, end;
	long avail;
	char c;

	if (!strcmp(name, "bench-oom") && argc > 1)
		name = argv[1];
	for (i = 0; i < (int)(sizeof(scenarios) / sizeof(*scenarios)); i++)
		if (!strcmp(name, scenarios[i].name))
			s = &scenarios[i];
	if (!s) {
		fprintf(stderr, "usage: bench-oom memfd-hog | dmabuf-hog | gem-hog\n"
			"                 | memfd-shared | memfd-sparse | gem-churn\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	set_oom_score_adj("-1000");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, share))
		die("socketpair");

	start(BYSTANDER, bystander);
	close(share[1]);
	if (read(share[0], &c, 1) != 1)
		die("the bystander did not get ready");
	if (s->sparse) {
		fd = memfd_create("sparse", 0);
		if (fd < 0 || ftruncate(fd, s->sparse))
			die("sparse memfd");
		send_fd(fd);
		close(fd);
	}
	/* Only the hog may still send the bystander something. */
	if (!s->shared) {
		close(share[0]);
		share[0] = -1;
	}
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0)
		die("/dev/kmsg");

	t0 = now_ms();
	if (s->churner)
		start(CHURNER, s->churner);
	if (s->shared)
		hog_memfd_opened = send_fd;
	start(HOG, s->hog);
	if (share[0] >= 0)
		close(share[0]);
	end = wait_recovery(t0, timeout * 1000LL);
	avail = meminfo("MemAvailable") / MIB;
	for (i = 0; i < NROLES; i++)
		if (pids[i])
			kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	nkills = oom_kills(kmsg, kills);
	if (end < 0) {
		printf("error: the hog did not die within %d s\n", timeout);
		return 2;
	}
	printf("result victims %s first %s kills ", s->name,
	       nkills ? role_of(kills[0]) : "none");
	for (i = 0; i < nkills; i++)
		printf("%s%s", i ? "," : "", role_of(kills[i]));
	printf("%s nkills %d first_ms %lld recovery_ms %lld avail_mib %ld\n",
	       nkills ? "" : "-", nkills, first_kill < 0 ? -1 : first_kill - t0,
	       end - t0, avail);
	return 0;
}
