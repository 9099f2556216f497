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
 * Why gem-hog maps through a DMA-buf: vgem (the DRM shmem helper) allocates
 * a buffer's pages inside the mmap() of it.  Mapped through the DRM file, the
 * OOM killer would then strike while that mmap() holds two references to the
 * DRM file in flight (its own fget() and the mapping being made), which
 * count for no process, and the hog would count a third of its buffers: the
 * series' known limit for references in flight (see the cover letter).
 * Through the DMA-buf, those references are the DMA-buf's, and the DRM file
 * shows what a client holds at rest: its buffers, all of them.  The first of the two that the OOM
 * killer kills (by its own account in the kernel log) is the victim; the
 * other is then killed by us.  Prints "victim: hog" or "victim: bystander"
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
#include <linux/dma-heap.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>

#define MIB (1024L * 1024)
#define CHUNK (4 * MIB)

static long page_size;

static void die(const char *what)
{
	printf("error: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void set_oom_score_adj(const char *adj)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);

	if (fd < 0 || write(fd, adj, strlen(adj)) < 0)
		die("oom_score_adj");
	close(fd);
}

static long mem_total(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

static void touch(char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += page_size)
		p[i] = 1;
}

static void hog_memfd(void)
{
	int fd = memfd_create("hog", 0);
	char *buf = malloc(MIB);

	if (fd < 0 || !buf)
		die("memfd");
	memset(buf, 0x5a, MIB);
	for (;;)
		if (write(fd, buf, MIB) < 0 && errno != EINTR && errno != ENOMEM)
			die("write to memfd");
}

static void hog_dmabuf(void)
{
	int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);

	if (heap < 0)
		die("/dev/dma_heap/system");
	for (;;) {
		struct dma_heap_allocation_data data = {
			.len = CHUNK, .fd_flags = O_RDWR | O_CLOEXEC,
		};

		/* Keep the fds: they hold the buffers. */
		if (ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &data) && errno != ENOMEM &&
		    errno != EINTR)
			die("DMA_HEAP_IOCTL_ALLOC");
	}
}

static int open_vgem(void)
{
	char name[16], path[32];
	int i, fd;

	for (i = 0; i < 16; i++) {
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(name, 0, sizeof(name));
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "vgem"))
			return fd;
		close(fd);
	}
	errno = ENODEV;
	return -1;
}

static void hog_gem(void)
{
	int fd = open_vgem();

	if (fd < 0)
		die("no vgem card");
	for (;;) {
		struct drm_mode_create_dumb create = {
			.width = page_size / 4, .height = CHUNK / page_size, .bpp = 32,
		};
		struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
		char *p;

		/* Out of memory, we try again: the OOM killer is to decide. */
		if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) {
			if (errno == ENOMEM || errno == EINTR)
				continue;
			die("DRM_IOCTL_MODE_CREATE_DUMB");
		}
		prime.handle = create.handle;
		if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime))
			die("DRM_IOCTL_PRIME_HANDLE_TO_FD");
		p = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 prime.fd, 0);
		if (p == MAP_FAILED) {
			close(prime.fd);
			if (errno == ENOMEM)
				continue;
			die("mmap of a dumb buffer's DMA-buf");
		}
		/* The pages stay with the buffer, out of our RSS. */
		touch(p, create.size);
		munmap(p, create.size);
		close(prime.fd);
	}
}

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
	page_size = sysconf(_SC_PAGESIZE);
	setrlimit(RLIMIT_NOFILE, &nofile);
	set_oom_score_adj("-1000");
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0)
		die("/dev/kmsg");

	quarter = mem_total() / 4;
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
	if (!nkills || kills[0] != first || !WIFSIGNALED(status)) {
		printf("error: the first death was not the OOM killer's\n");
		return 2;
	}
	printf("victim: %s\n", who(first, hog, bystander));
	if (!expect)
		return 0;
	if (strcmp(expect, who(first, hog, bystander))) {
		printf("expected: %s\n", expect);
		return 1;
	}
	return 0;
}
